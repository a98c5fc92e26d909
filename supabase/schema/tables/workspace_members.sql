-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.workspace_members.

create table public.workspace_members (
  workspace_id uuid not null,
  user_id uuid not null,
  role public.workspace_role not null,
  created_at timestamp with time zone default now() not null,
  constraint workspace_members_pkey PRIMARY KEY (workspace_id, user_id),
  constraint workspace_members_profile_fkey FOREIGN KEY (user_id) REFERENCES public.profiles(id) ON DELETE CASCADE,
  constraint workspace_members_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint workspace_members_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE
);

CREATE UNIQUE INDEX workspace_members_one_owner ON public.workspace_members USING btree (workspace_id) WHERE (role = 'owner'::public.workspace_role);
CREATE INDEX workspace_members_user_id_idx ON public.workspace_members USING btree (user_id);

alter table public.workspace_members enable row level security;

create policy "aal2 once a factor is verified" on public.workspace_members
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "members are removed below the remover, or leave" on public.workspace_members
  for delete
  to authenticated
  using (user_id <> (( SELECT auth.uid() AS uid)) AND (( SELECT public.has_role(workspace_members.workspace_id, 'owner'::public.workspace_role) AS has_role) AND role <> 'owner'::public.workspace_role OR ( SELECT public.has_role(workspace_members.workspace_id, 'admin'::public.workspace_role) AS has_role) AND (role = ANY (ARRAY['viewer'::public.workspace_role, 'member'::public.workspace_role]))) OR user_id = (( SELECT auth.uid() AS uid)) AND role <> 'owner'::public.workspace_role);

create policy "members see who else is in" on public.workspace_members
  for select
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)));

create policy "roles change below the changer" on public.workspace_members
  for update
  to authenticated
  using (user_id <> (( SELECT auth.uid() AS uid)) AND (( SELECT public.has_role(workspace_members.workspace_id, 'owner'::public.workspace_role) AS has_role) AND role <> 'owner'::public.workspace_role OR ( SELECT public.has_role(workspace_members.workspace_id, 'admin'::public.workspace_role) AS has_role) AND (role = ANY (ARRAY['viewer'::public.workspace_role, 'member'::public.workspace_role]))))
  with check (( SELECT public.has_role(workspace_members.workspace_id, 'owner'::public.workspace_role) AS has_role) AND role <> 'owner'::public.workspace_role OR ( SELECT public.has_role(workspace_members.workspace_id, 'admin'::public.workspace_role) AS has_role) AND (role = ANY (ARRAY['viewer'::public.workspace_role, 'member'::public.workspace_role])));

CREATE TRIGGER workspace_members_activity AFTER INSERT OR DELETE ON public.workspace_members FOR EACH ROW EXECUTE FUNCTION public.record_activity();
CREATE TRIGGER workspace_members_board_cache_delete AFTER DELETE ON public.workspace_members REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_people();
CREATE TRIGGER workspace_members_board_cache_insert AFTER INSERT ON public.workspace_members REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_people();
CREATE TRIGGER workspace_members_forget AFTER DELETE ON public.workspace_members REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION private.forget_former_members();
CREATE TRIGGER workspace_members_limit BEFORE INSERT ON public.workspace_members FOR EACH ROW EXECUTE FUNCTION public.limit_workspace_members();
CREATE TRIGGER workspace_members_notify AFTER INSERT ON public.workspace_members FOR EACH ROW EXECUTE FUNCTION private.notify_of_new_member();

grant references, trigger, maintain on public.workspace_members to anon;
grant select, delete, references, trigger, maintain on public.workspace_members to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.workspace_members to service_role;
grant update (role) on public.workspace_members to authenticated;
