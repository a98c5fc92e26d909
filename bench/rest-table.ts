// The table the REST rows read (and the soak reads): 200 rows anyone may select, made once per backend.
import pg from 'pg';
import type { BenchBackend } from './backend.ts';

export async function prepareRestTable(backend: BenchBackend): Promise<void> {
  const client = new pg.Client({ connectionString: backend.dbUrl });
  await client.connect();
  await client.query(`
    create table if not exists public.bench_items (id int primary key, title text not null, done boolean not null default false);
    alter table public.bench_items enable row level security;
    drop policy if exists "anyone reads" on public.bench_items;
    create policy "anyone reads" on public.bench_items for select to anon, authenticated using (true);
    insert into public.bench_items select i, 'item ' || i, i % 3 = 0 from generate_series(1, 200) i on conflict do nothing;
  `);
  await client.end();
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${backend.postgrestUrl}/bench_items?limit=1`);
    if (res.ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('PostgREST did not pick up bench_items');
}
