-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.checklist_ticked(text,integer,boolean,text).

CREATE OR REPLACE FUNCTION public.checklist_ticked(body text, item integer, checked boolean, item_text text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
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
$function$;
grant execute on function public.checklist_ticked(text,integer,boolean,text) to anon, authenticated, public, service_role;
