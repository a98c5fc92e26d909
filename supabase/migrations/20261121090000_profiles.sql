-- Profiles: the public face of an account (display name, avatar), one per user, made at sign-up.

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  display_name text not null check (char_length(btrim(display_name)) between 1 and 50),
  avatar_path text check (avatar_path is null or char_length(avatar_path) <= 400),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

alter table public.profiles enable row level security;

-- Workspace members will also read each other's profiles (a later migration widens this).
create policy "people read their own profile" on public.profiles
  for select to authenticated using (id = (select auth.uid()));

create policy "people update their own profile" on public.profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

-- Rows are made by the trigger below and removed with the account: never by a client.
revoke insert, delete, truncate on public.profiles from anon, authenticated;

create function public.touch_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

create trigger profiles_touch_updated_at
  before update on public.profiles
  for each row execute function public.touch_updated_at();

-- Runs as its owner so that the auth server's insert into auth.users can create the profile.
create function public.create_profile_for_new_user() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.profiles (id, display_name)
  values (
    new.id,
    coalesce(
      nullif(left(btrim(new.raw_user_meta_data ->> 'display_name'), 50), ''),
      nullif(left(split_part(coalesce(new.email, ''), '@', 1), 50), ''),
      'New member'
    )
  );
  return new;
end
$$;

revoke execute on function public.create_profile_for_new_user() from public, anon, authenticated;
revoke execute on function public.touch_updated_at() from public, anon, authenticated;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.create_profile_for_new_user();
