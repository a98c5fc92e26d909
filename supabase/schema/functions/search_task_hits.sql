-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.search_task_hits(uuid,tsquery,text,integer,uuid[],text,uuid[],uuid[],integer).

CREATE OR REPLACE FUNCTION public.search_task_hits(ws uuid, anywhere tsquery, key_project text, key_number integer, status_ids uuid[], assignee text, people uuid[], label_ids uuid[], size integer)
 RETURNS TABLE(task_id uuid, tier integer, rank real, updated_at timestamp with time zone, comment_id uuid)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
grant execute on function public.search_task_hits(uuid,tsquery,text,integer,uuid[],text,uuid[],uuid[],integer) to authenticated, service_role;
