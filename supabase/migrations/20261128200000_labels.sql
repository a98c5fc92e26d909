-- A workspace's labels: a name and a colour of the fixed palette whose chips read at 4.5:1 in light
-- and dark mode (app/styles/label-colours.ts names the same colours). Members read them; admins
-- create, rename, recolour and delete them. Names are trimmed, 1 to 30 characters, without control
-- characters, unique in the workspace whatever their letter case; a workspace has at most 200.

create table public.labels (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null,
  color text not null,
  created_at timestamptz not null default now(),
  -- The target of task_labels' foreign key: a label and the workspace it belongs to.
  constraint labels_id_workspace_key unique (id, workspace_id),
  constraint labels_name_length check (name = btrim(name) and char_length(name) between 1 and 30),
  constraint labels_name_printable check (name !~ '[\u0001-\u001f\u007f-\u009f]'),
  constraint labels_color_in_palette
    check (color in ('gray', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'indigo', 'purple', 'pink'))
);

-- One name per workspace in any letter case; it also serves every read of a workspace's labels.
create unique index labels_workspace_name_key on public.labels (workspace_id, lower(name));

-- A name is kept as typed, less the spaces around it, whichever client sends it.
create function public.labels_trim_name() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.name := btrim(new.name);
  return new;
end
$$;

revoke execute on function public.labels_trim_name() from public, anon, authenticated;

create trigger labels_trim_name
  before insert or update of name on public.labels
  for each row execute function public.labels_trim_name();

-- At most 200 labels a workspace (SPEC section 9). The lock makes two admins creating the 200th at
-- once take turns, so neither makes a 201st. Security definer: the count sees every row of the
-- workspace whatever the caller's policies show.
create function public.labels_limit_per_workspace() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform pg_advisory_xact_lock(hashtextextended('labels:' || new.workspace_id::text, 0));
  if (select count(*) from public.labels where workspace_id = new.workspace_id) >= 200 then
    raise exception 'A workspace can have at most 200 labels.'
      using errcode = 'check_violation',
            -- Named as Postgres names a failing constraint, so the app maps it as it maps the others.
            detail = 'Failing row violates constraint "labels_per_workspace".';
  end if;
  return new;
end
$$;

revoke execute on function public.labels_limit_per_workspace() from public, anon, authenticated;

create trigger labels_per_workspace
  before insert on public.labels
  for each row execute function public.labels_limit_per_workspace();

alter table public.labels enable row level security;

create policy "aal2 once a factor is verified" on public.labels
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));

create policy "members read labels" on public.labels
  for select to authenticated
  using (workspace_id in (select public.my_workspace_ids()));

create policy "admins create labels" on public.labels
  for insert to authenticated
  with check (workspace_id in (select public.my_workspace_ids('admin')));

create policy "admins rename and recolour labels" on public.labels
  for update to authenticated
  using (workspace_id in (select public.my_workspace_ids('admin')))
  with check (workspace_id in (select public.my_workspace_ids('admin')));

create policy "admins delete labels" on public.labels
  for delete to authenticated
  using (workspace_id in (select public.my_workspace_ids('admin')));

revoke all on public.labels from anon;
revoke insert, update, truncate on public.labels from authenticated;
grant insert (workspace_id, name, color) on public.labels to authenticated;
-- Only the name and the colour ever change: a label never moves to another workspace.
grant update (name, color) on public.labels to authenticated;

alter publication supabase_realtime add table public.labels;
