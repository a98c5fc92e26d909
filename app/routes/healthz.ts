// A resource route for load balancers and benchmarks: answers without touching the backend.
export function loader() {
  return new Response('ok', { headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' } });
}
