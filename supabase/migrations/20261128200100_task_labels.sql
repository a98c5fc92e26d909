-- Labels on tasks: any number a task. Both foreign keys carry the workspace, so a label can only
-- ever be put on a task of its own workspace: the database refuses another's, whoever asks. Members,
-- admins and the owner put labels on tasks of active projects and take them off; viewers read.

create table public.task_labels (
  task_id uuid not null,
  label_id uuid not null,
  workspace_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (task_id, label_id),
  constraint task_labels_task_fkey foreign key (task_id, workspace_id)
    references public.tasks (id, workspace_id) on delete cascade,
  constraint task_labels_label_fkey foreign key (label_id, workspace_id)
    references public.labels (id, workspace_id) on delete cascade
);

-- A label's tasks (its deletion, and a board filtered by it), and the policies' workspace.
create index task_labels_label_idx on public.task_labels (label_id, workspace_id);
create index task_labels_workspace_idx on public.task_labels (workspace_id);

alter table public.task_labels enable row level security;

create policy "aal2 once a factor is verified" on public.task_labels
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));

create policy "members read labels on tasks" on public.task_labels
  for select to authenticated
  using (workspace_id in (select public.my_workspace_ids()));

create policy "members label tasks of active projects" on public.task_labels
  for insert to authenticated
  with check (
    workspace_id in (select public.my_workspace_ids('member'))
    and (select public.task_is_writable(task_id))
  );

create policy "members unlabel tasks of active projects" on public.task_labels
  for delete to authenticated
  using (
    workspace_id in (select public.my_workspace_ids('member'))
    and (select public.task_is_writable(task_id))
  );

-- Rows are put on and taken off, never changed.
revoke all on public.task_labels from anon;
revoke insert, update, truncate on public.task_labels from authenticated;
grant insert (task_id, label_id, workspace_id) on public.task_labels to authenticated;

-- A task's labels set at once (the task panel's form without JavaScript): the ones not named come off
-- and the ones named go on, in one transaction, so a refusal leaves the task as it was. Security
-- invoker: the policies above decide, as for any write. A removal the policies hide (a viewer's, or
-- in an archived project) is refused rather than passed over.
create function public.set_task_labels(task_id uuid, label_ids uuid[]) returns void
language plpgsql
security invoker
set search_path = ''
as $$
declare
  wanted uuid[] := coalesce(set_task_labels.label_ids, '{}');
  ws uuid;
  removing int;
  removed int;
begin
  select t.workspace_id into ws from public.tasks t where t.id = set_task_labels.task_id;
  if ws is null then
    raise exception 'No such task.' using errcode = 'no_data_found';
  end if;
  select count(*) into removing from public.task_labels tl
   where tl.task_id = set_task_labels.task_id and tl.label_id <> all (wanted);
  delete from public.task_labels tl
   where tl.task_id = set_task_labels.task_id and tl.label_id <> all (wanted);
  get diagnostics removed = row_count;
  if removed < removing then
    raise exception 'The labels of this task cannot be changed.' using errcode = 'insufficient_privilege';
  end if;
  insert into public.task_labels (task_id, label_id, workspace_id)
  select distinct set_task_labels.task_id, l.id, ws from unnest(wanted) as l (id)
  on conflict do nothing;
end
$$;

revoke execute on function public.set_task_labels(uuid, uuid[]) from public, anon;
grant execute on function public.set_task_labels(uuid, uuid[]) to authenticated;

alter publication supabase_realtime add table public.task_labels;
