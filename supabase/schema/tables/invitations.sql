-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.invitations.

create table public.invitations (
  id uuid default gen_random_uuid() not null,
  workspace_id uuid not null,
  email text not null,
  role public.workspace_role not null,
  token_hash text not null,
  invited_by uuid default auth.uid(),
  created_at timestamp with time zone default now() not null,
  expires_at timestamp with time zone default now() + '7 days'::interval not null,
  accepted_at timestamp with time zone,
  accepted_by uuid,
  revoked_at timestamp with time zone,
  constraint invitations_pkey PRIMARY KEY (id),
  constraint invitations_token_hash_key UNIQUE (token_hash),
  constraint invitations_email_check CHECK (email = lower(btrim(email)) AND char_length(email) >= 3 AND char_length(email) <= 254 AND POSITION(('@'::text) IN (email)) > 1),
  constraint invitations_role_check CHECK (role = ANY (ARRAY['admin'::public.workspace_role, 'member'::public.workspace_role, 'viewer'::public.workspace_role])),
  constraint invitations_accepted_by_fkey FOREIGN KEY (accepted_by) REFERENCES auth.users(id) ON DELETE SET NULL,
  constraint invitations_invited_by_fkey FOREIGN KEY (invited_by) REFERENCES auth.users(id) ON DELETE SET NULL,
  constraint invitations_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE
);

CREATE INDEX invitations_accepted_by_idx ON public.invitations USING btree (accepted_by);
CREATE INDEX invitations_invited_by_idx ON public.invitations USING btree (invited_by);
CREATE UNIQUE INDEX invitations_one_pending ON public.invitations USING btree (workspace_id, email) WHERE ((accepted_at IS NULL) AND (revoked_at IS NULL));
CREATE INDEX invitations_workspace_id_idx ON public.invitations USING btree (workspace_id);

alter table public.invitations enable row level security;

create policy "aal2 once a factor is verified" on public.invitations
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "admins revoke invitations" on public.invitations
  for update
  to authenticated
  using (accepted_at IS NULL AND (( SELECT public.has_role(invitations.workspace_id, 'owner'::public.workspace_role) AS has_role) OR ( SELECT public.has_role(invitations.workspace_id, 'admin'::public.workspace_role) AS has_role) AND role <> 'admin'::public.workspace_role))
  with check (( SELECT public.has_role(invitations.workspace_id, 'owner'::public.workspace_role) AS has_role) OR ( SELECT public.has_role(invitations.workspace_id, 'admin'::public.workspace_role) AS has_role) AND role <> 'admin'::public.workspace_role);

create policy "admins see their workspace's invitations" on public.invitations
  for select
  to authenticated
  using (( SELECT public.has_role(invitations.workspace_id, 'admin'::public.workspace_role) AS has_role));

grant select, insert, update, delete, truncate, references, trigger, maintain on public.invitations to service_role;
grant select (id, workspace_id, email, role, invited_by, created_at, expires_at, accepted_at, accepted_by, revoked_at) on public.invitations to authenticated;
grant update (revoked_at) on public.invitations to authenticated;
