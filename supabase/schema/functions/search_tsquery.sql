-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.search_tsquery(text[]).

CREATE OR REPLACE FUNCTION public.search_tsquery(words text[])
 RETURNS tsquery
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
  select string_agg(
           '(' || regexp_replace(
                    plainto_tsquery('simple'::regconfig, w)::text,
                    '(''(?:[^'']|'''')*'')',
                    '\1' || case when char_length(btrim(w)) >= 2 then ':*' else '' end,
                    'g') || ')',
           ' & ')::tsquery
    from unnest(words[1:12]) as w
   where numnode(plainto_tsquery('simple'::regconfig, w)) > 0
$function$;
grant execute on function public.search_tsquery(text[]) to authenticated, service_role;
