// purge-trash: deletes for good the tasks that have been in the workspaces' trash for 30 days, with
// their comments, labels and files, and then the files' storage objects; and imports staged for a
// preview a day ago and never run. Called on a schedule with
// the service role key: by pg_cron + pg_net on a hosted project (docs/scheduled-functions.md), by the
// local backend's scheduler locally (supabase/schedule.toml). POST; anyone else gets 403.
import { createClient } from 'npm:@supabase/supabase-js@2.119.0';
import { callerRole, env, json } from '../_shared/http.ts';

/** Tasks per call of public.purge_trash, and storage objects per removal: each a short transaction. */
const TASKS_AT_ONCE = 500;
const FILES_AT_ONCE = 200;
/** Abandoned imports per call of public.purge_stale_imports (each up to 10 MB of JSON). */
const IMPORTS_AT_ONCE = 50;

Deno.serve(async (req) => {
  if (req.method !== 'POST') return json({ error: 'method_not_allowed' }, 405);
  if (callerRole(req) !== 'service_role') return json({ error: 'forbidden' }, 403);
  const admin = createClient(env('SUPABASE_URL'), env('SUPABASE_SERVICE_ROLE_KEY'), {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });

  // Imports staged for a preview a day ago and never run, then the trash's old tasks: each RPC is
  // called until it purges less than a batch.
  const drain = async (fn: string, args: Record<string, number>, batch: number) => {
    let count = 0;
    for (;;) {
      const { data, error } = await admin.rpc(fn, args);
      if (error) return { count, error: error.message };
      count += data as number;
      if ((data as number) < batch) return { count };
    }
  };
  const stale = await drain('purge_stale_imports', { max_rows: IMPORTS_AT_ONCE }, IMPORTS_AT_ONCE);
  const imports = stale.count;
  if (stale.error) return json({ error: 'purge_failed', message: stale.error, imports }, 502);
  const trash = await drain('purge_trash', { max_tasks: TASKS_AT_ONCE }, TASKS_AT_ONCE);
  const tasks = trash.count;
  if (trash.error) return json({ error: 'purge_failed', message: trash.error, tasks, imports }, 502);

  // The purged files' objects, and any other whose row went earlier (private.storage_trash). What
  // fails stays queued for the next run.
  let files = 0;
  for (;;) {
    const { data, error } = await admin.rpc('storage_trash', { max_items: FILES_AT_ONCE });
    if (error)
      return json({ error: 'storage_trash_failed', message: error.message, tasks, files, imports }, 502);
    const queued = data as Array<{ bucket_id: string; name: string }>;
    if (queued.length === 0) break;
    const byBucket = Map.groupBy(queued, (item) => item.bucket_id);
    for (const [bucket, items] of byBucket) {
      const names = items.map((item) => item.name);
      const removed = await admin.storage.from(bucket).remove(names);
      if (removed.error)
        return json({ error: 'storage_failed', message: removed.error.message, tasks, files, imports }, 502);
      const emptied = await admin.rpc('storage_trash_emptied', { bucket, names });
      if (emptied.error)
        return json(
          { error: 'storage_trash_failed', message: emptied.error.message, tasks, files, imports },
          502,
        );
      files += names.length;
    }
    if (queued.length < FILES_AT_ONCE) break;
  }
  return json({ tasks, files, imports });
});
