-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.notification_email_json(private.notification_emails).

CREATE OR REPLACE FUNCTION private.notification_email_json(e private.notification_emails)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select jsonb_build_object(
    'id', e.id,
    'message_key', e.message_key,
    'attempt', e.attempts,
    'unsubscribe_token', e.unsubscribe_token,
    'to', u.email,
    'name', coalesce(pr.display_name, ''),
    'notifications', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', n.id,
               'kind', n.kind,
               'data', n.data,
               'created_at', n.created_at,
               'actor', coalesce(ap.display_name, 'Someone'),
               'workspace', jsonb_build_object('name', w.name, 'slug', w.slug),
               'path', case
                 when t.id is not null then format('/w/%s/p/%s/t/%s', w.slug, t.project_id, t.number)
                 else format('/w/%s', w.slug)
               end
             ) order by n.created_at desc, n.id desc)
        from public.notifications n
        join public.workspaces w on w.id = n.workspace_id
        left join public.tasks t on t.id = n.task_id and t.workspace_id = n.workspace_id
        left join public.profiles ap on ap.id = n.actor_id
       where n.id = any (e.notification_ids)
    ), '[]'::jsonb)
  )
    from auth.users u
    left join public.profiles pr on pr.id = u.id
   where u.id = e.recipient_id
$function$;
grant execute on function private.notification_email_json(private.notification_emails) to public;
