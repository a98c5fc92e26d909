-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.workspaces.

create table public.workspaces (
  id uuid default gen_random_uuid() not null,
  name text not null,
  slug text not null,
  is_personal boolean default false not null,
  created_by uuid,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint workspaces_pkey PRIMARY KEY (id),
  constraint workspaces_slug_key UNIQUE (slug),
  constraint workspaces_name_check CHECK (char_length(btrim(name)) >= 1 AND char_length(btrim(name)) <= 60),
  constraint workspaces_slug_check CHECK (slug ~ '^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$'::text),
  constraint workspaces_slug_check1 CHECK (slug <> ALL (ARRAY['new'::text, 'settings'::text, 'members'::text, 'search'::text, 'invite'::text, 'account'::text, 'admin'::text, 'api'::text, 'w'::text, 'p'::text, 't'::text])),
  constraint workspaces_created_by_fkey FOREIGN KEY (created_by) REFERENCES auth.users(id) ON DELETE SET NULL
);

CREATE INDEX workspaces_created_by_idx ON public.workspaces USING btree (created_by);

alter table public.workspaces enable row level security;

create policy "aal2 once a factor is verified" on public.workspaces
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "admins rename and re-slug" on public.workspaces
  for update
  to authenticated
  using (( SELECT public.has_role(workspaces.id, 'admin'::public.workspace_role) AS has_role))
  with check (( SELECT public.has_role(workspaces.id, 'admin'::public.workspace_role) AS has_role));

create policy "members read their workspaces" on public.workspaces
  for select
  to authenticated
  using (id = ANY ((ARRAY( SELECT public.my_workspace_ids() AS my_workspace_ids))));

create policy "owners delete shared workspaces" on public.workspaces
  for delete
  to authenticated
  using (( SELECT public.has_role(workspaces.id, 'owner'::public.workspace_role) AS has_role) AND NOT is_personal);

CREATE TRIGGER workspaces_touch_updated_at BEFORE UPDATE ON public.workspaces FOR EACH ROW EXECUTE FUNCTION public.touch_updated_at();

grant references, trigger, maintain on public.workspaces to anon;
grant select, delete, references, trigger, maintain on public.workspaces to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.workspaces to service_role;
grant update (name, slug) on public.workspaces to authenticated;
