-- search_task_hits: the index reads behind public.search_tasks, for a workspace the caller is a
-- member of (nothing otherwise). Security definer, and why: under RLS, PostgreSQL may not use a
-- condition as an index condition before the policies' own unless its operator is leakproof, and
-- text search's @@ is not; so a search run as its caller reads the whole workspace and tests each
-- row. This function reads the GIN indexes (tasks_title_words_idx, tasks_words_idx,
-- comments_words_idx) as their owner and answers task ids only; search_tasks then reads those
-- tasks, their projects and statuses as the caller, under RLS, which decides what is shown.
--
-- Each kind of match, best first: 0 the task a key names, 1 every word in the title, 2 in the title
-- and description, 3 in one comment, 4 no words (filters alone: the most recently changed). Each
-- reads at most 100 candidates (filters alone: `size`). The filters arrive resolved by the caller
-- under RLS: `status_ids` null for any status, `assignee` 'none' for nobody or else `people`,
-- `label_ids` null for any label.

-- Whether a task passes a search's filters, as search_tasks resolved them: `status_ids` null for
-- any status; `assignee` null for anyone, 'none' for nobody, else one of `people`; `label_ids` null
-- for any label, else one of them.
create function public.search_task_passes(
  task_id uuid,
  status_id uuid,
  assignee_id uuid,
  status_ids uuid[],
  assignee text,
  people uuid[],
  label_ids uuid[]
) returns boolean
language sql
stable
security invoker
set search_path = ''
as $fn$
  select (status_ids is null or status_id = any (status_ids))
     and (assignee is null or (assignee = 'none' and assignee_id is null) or assignee_id = any (people))
     and (label_ids is null
          or exists (select 1 from public.task_labels tl
                      where tl.task_id = search_task_passes.task_id and tl.label_id = any (label_ids)))
$fn$;

revoke execute on function public.search_task_passes(uuid, uuid, uuid, uuid[], text, uuid[], uuid[]) from public, anon;
grant execute on function public.search_task_passes(uuid, uuid, uuid, uuid[], text, uuid[], uuid[])
  to authenticated;

create function public.search_task_hits(
  ws uuid,
  anywhere tsquery,
  key_project text,
  key_number integer,
  status_ids uuid[],
  assignee text,
  people uuid[],
  label_ids uuid[],
  size integer
) returns table (task_id uuid, tier integer, rank real, updated_at timestamptz, comment_id uuid)
language sql
stable
security definer
set search_path = ''
as $$
  with
  member as (
    select 1 where search_task_hits.ws in (select public.my_workspace_ids())
  )
  (select t.id, 0, 1::real, t.updated_at, null::uuid
     from public.projects p
     join public.tasks t on t.project_id = p.id and t.number = search_task_hits.key_number
    where exists (select 1 from member)
      and search_task_hits.key_number is not null
      and p.workspace_id = search_task_hits.ws
      and (search_task_hits.key_project is null or p.key = upper(search_task_hits.key_project))
      and t.deleted_at is null
      and public.search_task_passes(t.id, t.status_id, t.assignee_id, search_task_hits.status_ids,
                                    search_task_hits.assignee, search_task_hits.people, search_task_hits.label_ids))
  union all
  (select t.id, 1, ts_rank(public.task_search_words(t.title, t.description), search_task_hits.anywhere),
          t.updated_at, null
     from public.tasks t
    where exists (select 1 from member)
      and to_tsvector('simple'::regconfig, t.title) @@ search_task_hits.anywhere
      and t.workspace_id = search_task_hits.ws
      and t.deleted_at is null
      and public.search_task_passes(t.id, t.status_id, t.assignee_id, search_task_hits.status_ids,
                                    search_task_hits.assignee, search_task_hits.people, search_task_hits.label_ids)
    limit 100)
  union all
  (select t.id, 2, ts_rank(public.task_search_words(t.title, t.description), search_task_hits.anywhere),
          t.updated_at, null
     from public.tasks t
    where exists (select 1 from member)
      and public.task_search_words(t.title, t.description) @@ search_task_hits.anywhere
      and t.workspace_id = search_task_hits.ws
      and t.deleted_at is null
      and public.search_task_passes(t.id, t.status_id, t.assignee_id, search_task_hits.status_ids,
                                    search_task_hits.assignee, search_task_hits.people, search_task_hits.label_ids)
    limit 100)
  union all
  (select t.id, 3, ts_rank(public.comment_search_words(c.body), search_task_hits.anywhere), t.updated_at, c.id
     from public.comments c
     join public.tasks t on t.id = c.task_id
    where exists (select 1 from member)
      and public.comment_search_words(c.body) @@ search_task_hits.anywhere
      and c.workspace_id = search_task_hits.ws
      and t.deleted_at is null
      and public.search_task_passes(t.id, t.status_id, t.assignee_id, search_task_hits.status_ids,
                                    search_task_hits.assignee, search_task_hits.people, search_task_hits.label_ids)
    limit 100)
  union all
  (select t.id, 4, 0::real, t.updated_at, null
     from public.tasks t
    where exists (select 1 from member)
      and search_task_hits.anywhere is null
      and search_task_hits.key_number is null
      and t.workspace_id = search_task_hits.ws
      and t.deleted_at is null
      and public.search_task_passes(t.id, t.status_id, t.assignee_id, search_task_hits.status_ids,
                                    search_task_hits.assignee, search_task_hits.people, search_task_hits.label_ids)
    order by t.updated_at desc
    limit search_task_hits.size)
$$;

revoke execute on function public.search_task_hits(uuid, tsquery, text, integer, uuid[], text, uuid[], uuid[], integer)
  from public, anon;
grant execute on function public.search_task_hits(uuid, tsquery, text, integer, uuid[], text, uuid[], uuid[], integer)
  to authenticated;
