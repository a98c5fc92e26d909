-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.notify(uuid,uuid,uuid,uuid,uuid[],text[],jsonb[]).

CREATE OR REPLACE FUNCTION private.notify(actor uuid, ws uuid, task uuid, comment uuid, candidates uuid[], kinds text[], details jsonb[])
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
  insert into public.notifications
    (recipient_id, workspace_id, task_id, comment_id, actor_id, kind, data, archived_at)
  select chosen.recipient, notify.ws, notify.task, notify.comment,
         (select u.id from auth.users u where u.id = notify.actor), chosen.kind, chosen.data,
         case when not chosen.in_inbox then now() end
    from (
      select distinct on (c.recipient) c.recipient, c.kind, c.data,
             (pref.user_id is null or c.kind = any (pref.inbox_kinds)) as in_inbox
        from unnest(notify.candidates, notify.kinds, notify.details)
               with ordinality as c (recipient, kind, data, n)
        join public.workspace_members m on m.workspace_id = notify.ws and m.user_id = c.recipient
        left join public.notification_preferences pref on pref.user_id = c.recipient
       where notify.actor is not null
         and c.recipient <> notify.actor
         and (pref.user_id is null or c.kind = any (pref.inbox_kinds) or c.kind = any (pref.email_kinds))
       order by c.recipient, c.n
    ) chosen
$function$;
