-- Found by tests/integration/query-plans.test.ts; docs/performance.md has the plans.

-- The workspace list (/w) reads workspaces with no filter of its own: RLS is the filter. Written as
-- `id in (select …)` the policy becomes a hashed SubPlan, which no index can answer, so every
-- visit read the whole workspaces table (one row per person who ever signed up: everyone has a
-- personal workspace). `id = any (array(select …))` is the same rule, evaluated once as an InitPlan,
-- and an index condition on the primary key: the list reads the caller's workspaces only.
drop policy "members read their workspaces" on public.workspaces;
create policy "members read their workspaces" on public.workspaces
  for select to authenticated using (id = any (array(select public.my_workspace_ids())));
