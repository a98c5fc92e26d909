-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.saved_views_of(uuid).

CREATE OR REPLACE FUNCTION public.saved_views_of(workspace_id uuid)
 RETURNS json
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select coalesce(json_agg(json_build_object('id', v.id, 'project_id', v.project_id, 'name', v.name,
                                             'kind', v.kind, 'shared', v.shared, 'query', v.query)
                           order by lower(v.name), v.id), '[]'::json)
    from public.saved_views v
   where v.workspace_id = saved_views_of.workspace_id
     and (v.shared or v.owner_id = (select auth.uid()))
$function$;
grant execute on function public.saved_views_of(uuid) to authenticated, service_role;
