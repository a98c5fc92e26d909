-- Checklists in task descriptions: the lines that are checklist items, and the tick that changes one.
--
-- The rule is app/utils/markdown-rules.ts's `checklistItems`, which numbers the boxes the panel
-- draws: a line matching ^\s*([-*+]|\d+[.)])\s+\[( |x|X)\]\s+(.*)$ outside a fenced code block (a
-- fence opens on ``` or ~~~ indented at most three spaces, and closes on a line of the same
-- character, at least as long, with nothing but spaces after it), numbered 1, 2, 3… in order. Lines
-- are split at \n; a \r before it is not part of the line.
--
-- Both functions are pure and in public, like public.project_key_from_name: anyone may call them, and
-- they read nothing.

create function public.checklist_items(body text)
returns table (n int, line int, checked boolean, item_text text)
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  lines text[] := string_to_array(coalesce(checklist_items.body, ''), E'\n');
  fence text;
  l text;
  f text[];
  m text[];
  found int := 0;
begin
  for i in 1 .. coalesce(array_length(lines, 1), 0) loop
    l := regexp_replace(lines[i], E'\r$', '');
    f := regexp_match(l, '^ {0,3}(`{3,}|~{3,})(.*)$');
    if fence is not null then
      if f is not null and left(f[1], 1) = left(fence, 1) and length(f[1]) >= length(fence)
         and f[2] ~ '^\s*$' then
        fence := null;
      end if;
      continue;
    end if;
    if f is not null then
      fence := f[1];
      continue;
    end if;
    m := regexp_match(l, '^\s*([-*+]|\d+[.)])\s+\[( |x|X)\]\s+(.*)$');
    if m is not null then
      found := found + 1;
      n := found;
      line := i - 1;
      checked := m[2] <> ' ';
      item_text := m[3];
      return next;
    end if;
  end loop;
end
$$;

comment on function public.checklist_items(text) is
  'The checklist items of a task description, as app/utils/markdown-rules.ts checklistItems numbers them.';

-- The description with item `item` ticked (or not), only its box changed; refused with HTTP 409
-- (PostgREST's PT409) when the text has no such item or the item's text is no longer `item_text`
-- (someone edited the description since the page was drawn).
create function public.checklist_ticked(body text, item int, checked boolean, item_text text)
returns text
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  target int;
  lines text[] := string_to_array(checklist_ticked.body, E'\n');
begin
  select c.line into target
    from public.checklist_items(checklist_ticked.body) c
   where c.n = checklist_ticked.item
     and c.item_text = checklist_ticked.item_text;
  if target is null then
    raise exception 'This checklist item has changed since the page was shown. Reload the task and try again.'
      using errcode = 'PT409';
  end if;
  lines[target + 1] := regexp_replace(lines[target + 1], '^(\s*(?:[-*+]|\d+[.)])\s+\[)[ xX](\])',
                                      '\1' || case when checklist_ticked.checked then 'x' else ' ' end || '\2');
  return array_to_string(lines, E'\n');
end
$$;

-- A tick: one UPDATE whose new description is computed from the row it updates. Under READ COMMITTED
-- a second tick of the same task waits for the first's row lock and then computes from the row the
-- first wrote, so two people ticking different items at once both land. RLS decides who may: the
-- task's update policy (members and above, in an active project).
create function public.tick_checklist_item(task_id uuid, item int, checked boolean, item_text text)
returns void
language plpgsql
security invoker
set search_path = ''
as $$
declare
  changed int;
begin
  update public.tasks t
     set description = public.checklist_ticked(t.description, tick_checklist_item.item,
                                               tick_checklist_item.checked, tick_checklist_item.item_text)
   where t.id = tick_checklist_item.task_id;
  get diagnostics changed = row_count;
  if changed = 0 then
    if exists (select 1 from public.tasks t where t.id = tick_checklist_item.task_id) then
      raise exception 'This task is read-only.' using errcode = 'insufficient_privilege';
    end if;
    raise exception 'No such task.' using errcode = 'no_data_found';
  end if;
end
$$;

revoke execute on function public.tick_checklist_item(uuid, int, boolean, text) from public, anon;
grant execute on function public.tick_checklist_item(uuid, int, boolean, text) to authenticated;

-- A card's checklist progress, {done, total}; null for a description without items. Reads the text
-- only when it has a box at all.
create function private.checklist_progress(body text) returns jsonb
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case when count(*) > 0
              then jsonb_build_object('done', count(*) filter (where c.checked), 'total', count(*)) end
    from public.checklist_items(checklist_progress.body) c
   where checklist_progress.body ~ '\[[ xX]\]'
$$;

revoke execute on function private.checklist_progress(text) from public, anon, authenticated;
