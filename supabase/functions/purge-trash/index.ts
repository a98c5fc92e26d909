// purge-trash: deletes for good the tasks that have been in the workspaces' trash for 30 days, with
// their comments, labels and files, and then the files' storage objects. Called on a schedule with
// the service role key: by pg_cron + pg_net on a hosted project (docs/scheduled-functions.md), by the
// local backend's scheduler locally (supabase/schedule.toml). POST; anyone else gets 403.
import { createClient } from 'npm:@supabase/supabase-js@2.119.0';
import { callerRole, env, json } from '../_shared/http.ts';

/** Tasks per call of public.purge_trash, and storage objects per removal: each a short transaction. */
const TASKS_AT_ONCE = 500;
const FILES_AT_ONCE = 200;

Deno.serve(async (req) => {
  if (req.method !== 'POST') return json({ error: 'method_not_allowed' }, 405);
  if (callerRole(req) !== 'service_role') return json({ error: 'forbidden' }, 403);
  const admin = createClient(env('SUPABASE_URL'), env('SUPABASE_SERVICE_ROLE_KEY'), {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });

  let tasks = 0;
  for (;;) {
    const { data, error } = await admin.rpc('purge_trash', { max_tasks: TASKS_AT_ONCE });
    if (error) return json({ error: 'purge_failed', message: error.message, tasks }, 502);
    tasks += data as number;
    if ((data as number) < TASKS_AT_ONCE) break;
  }

  // The purged files' objects, and any other whose row went earlier (private.storage_trash). What
  // fails stays queued for the next run.
  let files = 0;
  for (;;) {
    const { data, error } = await admin.rpc('storage_trash', { max_items: FILES_AT_ONCE });
    if (error) return json({ error: 'storage_trash_failed', message: error.message, tasks, files }, 502);
    const queued = data as Array<{ bucket_id: string; name: string }>;
    if (queued.length === 0) break;
    const byBucket = Map.groupBy(queued, (item) => item.bucket_id);
    for (const [bucket, items] of byBucket) {
      const names = items.map((item) => item.name);
      const removed = await admin.storage.from(bucket).remove(names);
      if (removed.error)
        return json({ error: 'storage_failed', message: removed.error.message, tasks, files }, 502);
      const emptied = await admin.rpc('storage_trash_emptied', { bucket, names });
      if (emptied.error)
        return json({ error: 'storage_trash_failed', message: emptied.error.message, tasks, files }, 502);
      files += names.length;
    }
    if (queued.length < FILES_AT_ONCE) break;
  }
  return json({ tasks, files });
});
