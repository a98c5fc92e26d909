// The backend the app talks to. Without SUPABASE_URL it is the local backend's well-known address
// and development keys (public knowledge, valid nowhere else).
const LOCAL_URL = 'http://127.0.0.1:54321';
const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';

export function supabaseEnv(): { url: string; anonKey: string } {
  return {
    url: process.env.SUPABASE_URL || LOCAL_URL,
    anonKey: process.env.SUPABASE_ANON_KEY || LOCAL_ANON_KEY,
  };
}
