-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.checklist_items(text).

CREATE OR REPLACE FUNCTION public.checklist_items(body text)
 RETURNS TABLE(n integer, line integer, checked boolean, item_text text)
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
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
$function$;
comment on function public.checklist_items(text) is 'The checklist items of a task description, as app/utils/markdown-rules.ts checklistItems numbers them.';
grant execute on function public.checklist_items(text) to anon, authenticated, public, service_role;
