-- search_tasks: one workspace's tasks for a search, best first, as the caller reads them (security
-- invoker: RLS decides, so an outsider finds nothing). The app parses what was typed
-- (app/utils/search-query.ts) and passes its parts as parameters: the words, a task key, filters.
--
-- The index reads are search_task_hits' (20261201300100_search_task_hits.sql, which says why they
-- run as its owner); the tasks shown are read here, as the caller.
--
-- Order: the task the key names (`WEB-12`; `#12` with no key is that number in any project), then
-- tasks with every word in the title, then in the title and description, then in one comment; within
-- each, by text-search rank, then the most recently changed. Each kind of match reads at most 100
-- candidates from its GIN index: a word found all over a workspace costs 100 rows, not the workspace.
--
-- Each row: {id, project_key, project_name, number, title, status_name, status_category, matched
-- ('key' | 'title' | 'description' | 'comment' | 'filter'), title_marked, snippet}. `title_marked`
-- and `snippet` mark each match between U+0001 and U+0002 (removed from the text first, so only the
-- marks are such characters); the page turns them into <mark> elements and escapes everything else.
-- `snippet` is the part of the description or comment that matched, else null.

drop function public.search_tasks(uuid, text);

create function public.search_tasks(
  workspace_slug text,
  words text[] default '{}',
  key_project text default null,
  key_number integer default null,
  assignee text default null,
  status text default null,
  state text default null,
  label text default null,
  project text default null,
  max_results integer default 20
) returns table (
  id uuid,
  project_key text,
  project_name text,
  number integer,
  title text,
  status_name text,
  status_category text,
  matched text,
  title_marked text,
  snippet text
)
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  ws uuid;
  anywhere tsquery := public.search_tsquery(search_tasks.words);
  size integer := least(greatest(coalesce(search_tasks.max_results, 20), 1), 50);
  marks text := 'StartSel=' || chr(1) || ', StopSel=' || chr(2);
  -- Whether `project:`, `status:` or `is:` leave out some statuses: only then is a task's status
  -- checked, so that without them nothing steers the plan away from the words' indexes.
  narrowed boolean := search_tasks.project is not null or search_tasks.status is not null
                      or search_tasks.state is not null;
begin
  select w.id into ws from public.workspaces w where w.slug = search_tasks.workspace_slug;
  if ws is null then
    return;
  end if;
  return query (
  with
  -- The projects searched: all of the workspace's, or the one `project:` names.
  chosen_projects as materialized (
    select p.id, p.key, p.name
      from public.projects p
     where p.workspace_id = ws
       and (search_tasks.project is null or p.key = upper(btrim(search_tasks.project)))
  ),
  -- Their statuses `status:` and `is:` leave (all of them without either).
  chosen_statuses as materialized (
    select s.id, s.name, s.category
      from public.project_statuses s
     where s.workspace_id = ws
       and s.project_id in (select cp.id from chosen_projects cp)
       and (search_tasks.status is null or lower(s.name) = lower(btrim(search_tasks.status)))
       and (search_tasks.state is null
            or (search_tasks.state = 'open' and s.category not in ('completed', 'canceled'))
            or (search_tasks.state = 'done' and s.category = 'completed'))
  ),
  -- `assignee:`: me, nobody, or the members whose name begins so (letters and digits compared).
  people as materialized (
    select (select auth.uid()) as id where search_tasks.assignee = 'me'
    union all
    select wm.user_id
      from public.workspace_members wm
      join public.profiles pr on pr.id = wm.user_id
     where wm.workspace_id = ws
       and search_tasks.assignee not in ('me', 'none')
       and regexp_replace(lower(search_tasks.assignee), '[^[:alnum:]]', '', 'g') <> ''
       and starts_with(regexp_replace(lower(pr.display_name), '[^[:alnum:]]', '', 'g'),
                       regexp_replace(lower(search_tasks.assignee), '[^[:alnum:]]', '', 'g'))
  ),
  wanted_labels as materialized (
    select l.id
      from public.labels l
     where l.workspace_id = ws
       and lower(l.name) = lower(btrim(search_tasks.label))
  ),
  -- Every kind of match (search_task_hits reads the indexes), the filters resolved here, under RLS.
  hits as (
    select h.task_id as id, h.tier, h.rank, h.updated_at, h.comment_id
      from public.search_task_hits(
             ws, anywhere, search_tasks.key_project, search_tasks.key_number,
             case when narrowed then array(select cs.id from chosen_statuses cs) end,
             search_tasks.assignee,
             array(select pe.id from people pe),
             case when search_tasks.label is not null then array(select wl.id from wanted_labels wl) end,
             size) h
  ),
  -- Each task once, where it matched best.
  best as (
    select distinct on (h.id) h.*
      from hits h
     order by h.id, h.tier, h.rank desc
  ),
  top as materialized (
    select b.*
      from best b
     order by b.tier, b.rank desc, b.updated_at desc, b.id
     limit size
  )
  select t.id, cp.key, cp.name, t.number, t.title, cs.name, cs.category::text,
         (array['key', 'title', 'description', 'comment', 'filter'])[top.tier + 1],
         case when anywhere is null then t.title
              else ts_headline('simple'::regconfig, translate(t.title, chr(1) || chr(2), ''), anywhere,
                               'HighlightAll=true, ' || marks) end,
         case top.tier
           when 2 then ts_headline('simple'::regconfig, translate(t.description, chr(1) || chr(2), ''),
                                   anywhere, 'MaxWords=24, MinWords=8, MaxFragments=1, ' || marks)
           when 3 then (select ts_headline('simple'::regconfig, translate(c.body, chr(1) || chr(2), ''),
                                           anywhere, 'MaxWords=24, MinWords=8, MaxFragments=1, ' || marks)
                          from public.comments c
                         where c.id = top.comment_id)
         end
    from top
    join public.tasks t on t.id = top.id
    join chosen_projects cp on cp.id = t.project_id
    join chosen_statuses cs on cs.id = t.status_id
   order by top.tier, top.rank desc, top.updated_at desc, top.id
  );
end
$$;

revoke execute on function public.search_tasks(text, text[], text, integer, text, text, text, text, text, integer)
  from public, anon;
grant execute on function public.search_tasks(text, text[], text, integer, text, text, text, text, text, integer)
  to authenticated;
