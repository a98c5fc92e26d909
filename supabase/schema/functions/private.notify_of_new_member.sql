-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.notify_of_new_member().

CREATE OR REPLACE FUNCTION private.notify_of_new_member()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  actor uuid := (select auth.uid());
begin
  if actor is null then
    return null;
  end if;
  if actor = new.user_id then
    select i.invited_by into actor
      from public.invitations i
      join auth.users u on u.id = new.user_id and i.email = lower(u.email)
     where i.workspace_id = new.workspace_id
       and i.revoked_at is null
     order by i.accepted_at is null desc, i.created_at desc
     limit 1;
  end if;
  perform private.notify(actor, new.workspace_id, null, null, array[new.user_id],
    array['added_to_workspace'],
    array[(select jsonb_build_object('workspace', jsonb_build_object('slug', w.slug, 'name', w.name),
                                     'role', new.role)
             from public.workspaces w where w.id = new.workspace_id)]);
  return null;
end
$function$;
