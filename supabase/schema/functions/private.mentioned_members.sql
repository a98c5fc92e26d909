-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.mentioned_members(uuid,text).

CREATE OR REPLACE FUNCTION private.mentioned_members(ws uuid, body text)
 RETURNS uuid[]
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select coalesce(array_agg(distinct m.user_id), '{}')
    from (
      select distinct private.fold_name(t[1]) as wanted
        from regexp_matches(coalesce(body, ''), '(?<![[:alnum:]_])@([[:alnum:]._-]+)', 'g') as t
    ) tokens
    join public.workspace_members m on m.workspace_id = ws
    join public.profiles p on p.id = m.user_id
   where tokens.wanted <> ''
     and tokens.wanted in (private.fold_name(p.display_name),
                           private.fold_name(substring(p.display_name from '^\s*(\S*)')))
$function$;
