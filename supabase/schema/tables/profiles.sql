-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.profiles.

create table public.profiles (
  id uuid not null,
  display_name text not null,
  avatar_path text,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint profiles_pkey PRIMARY KEY (id),
  constraint profiles_avatar_in_own_folder CHECK (avatar_path IS NULL OR avatar_path ~~ (id::text || '/%'::text)),
  constraint profiles_avatar_path_check CHECK (avatar_path IS NULL OR char_length(avatar_path) <= 400),
  constraint profiles_display_name_check CHECK (char_length(btrim(display_name)) >= 1 AND char_length(btrim(display_name)) <= 50),
  constraint profiles_id_fkey FOREIGN KEY (id) REFERENCES auth.users(id) ON DELETE CASCADE
);

alter table public.profiles enable row level security;

create policy "aal2 once a factor is verified" on public.profiles
  as restrictive
  for all
  to authenticated
  using (id = (( SELECT auth.uid() AS uid)) OR ( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "people read the profiles of fellow members" on public.profiles
  for select
  to authenticated
  using ((id IN ( SELECT public.fellow_member_ids() AS fellow_member_ids)));

create policy "people read their own profile" on public.profiles
  for select
  to authenticated
  using (id = (( SELECT auth.uid() AS uid)));

create policy "people update their own profile" on public.profiles
  for update
  to authenticated
  using (id = (( SELECT auth.uid() AS uid)))
  with check (id = (( SELECT auth.uid() AS uid)));

CREATE TRIGGER profiles_board_cache_update AFTER UPDATE ON public.profiles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_people();
CREATE TRIGGER profiles_touch_updated_at BEFORE UPDATE ON public.profiles FOR EACH ROW EXECUTE FUNCTION public.touch_updated_at();
CREATE TRIGGER profiles_trash_avatar AFTER DELETE OR UPDATE OF avatar_path ON public.profiles FOR EACH ROW EXECUTE FUNCTION private.trash_avatar_file();

grant select, update, references, trigger, maintain on public.profiles to anon, authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.profiles to service_role;
