-- search_task_hits reads each kind of match only while the kinds before it leave the page short.
-- The answer is ordered by kind of match first (the task a key names, every word in the title, in
-- the title and description, in one comment), and shows a task once, where it matched best: once
-- the kinds before have found `size` different tasks, nothing a later kind finds can be shown, so
-- its index read and its ranks are skipped. In the benchmark's workspace of 100,000 tasks, two
-- common words are in the titles of 24 tasks, and a page of 20 still read and ranked 100 candidates
-- from the descriptions and 100 from the comments.
--
-- With no filter, no row calls search_task_passes (which has settings of its own, so each call is a
-- function call with search_path switched, not an expression the planner inlines).
--
-- Unchanged: what each kind of match reads when it is read (at most 100 candidates, through the
-- indexes of 20261202000000_search_words_by_workspace.sql), and so the answer; the membership
-- check; the filters (20261201300100_search_task_hits.sql says why this runs as its owner).

create or replace function public.search_task_hits(
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
  ),
  -- No filter: search_task_passes is not called.
  unfiltered as (
    select search_task_hits.status_ids is null and search_task_hits.assignee is null
           and search_task_hits.label_ids is null as yes
  ),
  by_key as materialized (
    select t.id, 0 as tier, 1::real as rank, t.updated_at, null::uuid as comment_id
      from public.projects p
      join public.tasks t on t.project_id = p.id and t.number = search_task_hits.key_number
     where exists (select 1 from member)
       and search_task_hits.key_number is not null
       and p.workspace_id = search_task_hits.ws
       and (search_task_hits.key_project is null or p.key = upper(search_task_hits.key_project))
       and t.deleted_at is null
       and ((select yes from unfiltered)
            or public.search_task_passes(t.id, t.status_id, t.assignee_id, search_task_hits.status_ids,
                                         search_task_hits.assignee, search_task_hits.people, search_task_hits.label_ids))
  ),
  in_title as materialized (
    select t.id, 1 as tier, ts_rank(public.task_search_words(t.title, t.description), search_task_hits.anywhere) as rank,
           t.updated_at, null::uuid as comment_id
      from public.tasks t
     where exists (select 1 from member)
       and to_tsvector('simple'::regconfig, t.title) @@ search_task_hits.anywhere
       and t.workspace_id = search_task_hits.ws
       and t.deleted_at is null
       and ((select yes from unfiltered)
            or public.search_task_passes(t.id, t.status_id, t.assignee_id, search_task_hits.status_ids,
                                         search_task_hits.assignee, search_task_hits.people, search_task_hits.label_ids))
     limit 100
  ),
  -- Read only while the kinds of match before it have found fewer than `size` tasks; comments too.
  in_words as materialized (
    select t.id, 2 as tier, ts_rank(public.task_search_words(t.title, t.description), search_task_hits.anywhere) as rank,
           t.updated_at, null::uuid as comment_id
      from public.tasks t
     where exists (select 1 from member)
       and (select count(*) from (select id from by_key union select id from in_title) found) < search_task_hits.size
       and public.task_search_words(t.title, t.description) @@ search_task_hits.anywhere
       and t.workspace_id = search_task_hits.ws
       and t.deleted_at is null
       and ((select yes from unfiltered)
            or public.search_task_passes(t.id, t.status_id, t.assignee_id, search_task_hits.status_ids,
                                         search_task_hits.assignee, search_task_hits.people, search_task_hits.label_ids))
     limit 100
  ),
  in_comments as materialized (
    select t.id, 3 as tier, ts_rank(public.comment_search_words(c.body), search_task_hits.anywhere) as rank,
           t.updated_at, c.id as comment_id
      from public.comments c
      join public.tasks t on t.id = c.task_id
     where exists (select 1 from member)
       and (select count(*) from (select id from by_key union select id from in_title
                                  union select id from in_words) found) < search_task_hits.size
       and public.comment_search_words(c.body) @@ search_task_hits.anywhere
       and c.workspace_id = search_task_hits.ws
       and t.deleted_at is null
       and ((select yes from unfiltered)
            or public.search_task_passes(t.id, t.status_id, t.assignee_id, search_task_hits.status_ids,
                                         search_task_hits.assignee, search_task_hits.people, search_task_hits.label_ids))
     limit 100
  )
  select * from by_key
  union all
  select * from in_title
  union all
  select * from in_words
  union all
  select * from in_comments
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
