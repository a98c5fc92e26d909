// The service-role client: the one place the app holds SUPABASE_SERVICE_ROLE_KEY. It bypasses every
// policy, so it is used only where no user can act for themselves: removing an account (GoTrue lets
// only the admin API delete a user), the files that go with it, and the files of deleted rows.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/types/database.ts';
import { config, supabaseEnv } from './env.server.ts';
import { backendFetch } from './backend-fetch.server.ts';

let cached: { url: string; key: string; client: SupabaseClient<Database> } | null = null;

/** One client for the process: it holds no session, so every request can share it. */
function adminClient(): SupabaseClient<Database> {
  const key = config().serviceRoleKey;
  if (!key) throw new Error('SUPABASE_SERVICE_ROLE_KEY is not set: accounts cannot be deleted.');
  const { url } = supabaseEnv();
  if (cached?.url === url && cached.key === key) return cached.client;
  const client = createClient<Database>(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: backendFetch },
  });
  cached = { url, key, client };
  return client;
}

/** Deletes the account; the database takes its personal and member-less workspaces along. */
export async function deleteAccount(userId: string): Promise<'deleted' | 'failed'> {
  const { error } = await adminClient().auth.admin.deleteUser(userId);
  return error ? 'failed' : 'deleted';
}

/**
 * Removes files that belonged to a deleted account: its avatar folder, and the attachments of the
 * workspaces that went with it. A bucket that does not exist (yet) is skipped; a failure here is
 * logged, not shown: the account is already gone.
 */
export async function removeAccountFiles(userId: string, workspaceIds: string[]): Promise<void> {
  const storage = adminClient().storage;
  const folders: Array<{ bucket: string; prefix: string; depth: number }> = [
    { bucket: 'avatars', prefix: userId, depth: 3 },
    // <workspace_id>/<task_id>/<file>
    ...workspaceIds.map((id) => ({ bucket: 'attachments', prefix: id, depth: 3 })),
  ];
  const { data: buckets, error } = await storage.listBuckets();
  if (error) {
    console.warn(`Files of deleted account ${userId} not removed: ${error.message}`);
    return;
  }
  const existing = new Set(buckets.map((b) => b.id));
  for (const { bucket, prefix, depth } of folders) {
    if (!existing.has(bucket)) continue;
    const paths = await filesUnder(storage, bucket, prefix, depth);
    for (let i = 0; i < paths.length; i += 100) {
      const { error: removeError } = await storage.from(bucket).remove(paths.slice(i, i + 100));
      if (removeError) console.warn(`Files of deleted account ${userId} not removed: ${removeError.message}`);
    }
  }
}

type Storage = SupabaseClient<Database>['storage'];

/** Every file path under `prefix`, `depth` folder levels down (the list API shows one level at a time). */
async function filesUnder(
  storage: Storage,
  bucket: string,
  prefix: string,
  depth: number,
): Promise<string[]> {
  const paths: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const { data, error } = await storage.from(bucket).list(prefix, { limit: 1000, offset });
    if (error || !data) return paths;
    for (const entry of data) {
      const path = `${prefix}/${entry.name}`;
      // Folders come back without an id.
      if (entry.id) paths.push(path);
      else if (depth > 1) paths.push(...(await filesUnder(storage, bucket, path, depth - 1)));
    }
    if (data.length < 1000) return paths;
  }
}

/**
 * Deletes the files whose rows are gone (queued by database triggers). Best effort: whatever fails
 * stays queued for the next call; nothing a user sees depends on it.
 */
export async function emptyStorageTrash(): Promise<void> {
  try {
    if (!config().serviceRoleKey) return;
    const admin = adminClient();
    const { data, error } = await admin.rpc('storage_trash', { max_items: 200 });
    if (error || !data || data.length === 0) return;
    const byBucket = new Map<string, string[]>();
    for (const item of data)
      byBucket.set(item.bucket_id, [...(byBucket.get(item.bucket_id) ?? []), item.name]);
    for (const [bucket, names] of byBucket) {
      const removed = await admin.storage.from(bucket).remove(names);
      if (removed.error) continue;
      await admin.rpc('storage_trash_emptied', { bucket, names });
    }
  } catch (error) {
    console.warn(`Emptying the storage trash failed: ${(error as Error).message}`);
  }
}

/**
 * Takes one attempt from each bucket, or none: 0 when the attempt may go ahead, otherwise the
 * seconds to wait. Only the service role may call it, so no visitor can drain another's bucket.
 */
export async function takeRateLimits(
  buckets: Array<{ key: string; capacity: number }>,
  windowSeconds: number,
): Promise<number | 'unavailable'> {
  try {
    const { data, error } = await adminClient().rpc('take_rate_limits', {
      keys: buckets.map((b) => b.key),
      capacities: buckets.map((b) => b.capacity),
      window_seconds: windowSeconds,
    });
    if (error || typeof data !== 'number') return 'unavailable';
    return data;
  } catch {
    return 'unavailable';
  }
}
