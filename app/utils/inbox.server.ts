// The inbox's reading and its forms (app/routes/inbox.tsx): notifications made into sentences
// ("Ada Lovelace assigned you WEB-12 Fix login") with the address each one opens, and the forms that
// mark them read, unread or archived. The kinds and their data are documented at the top of
// supabase/migrations/20261130100000_notifications.sql.
import * as z from 'zod/mini';
import { publicAvatarUrl } from './files.server.ts';
import { taskPath } from './projects.ts';

/** How many notifications a page of the inbox shows. */
export const INBOX_PAGE_SIZE = 50;

/** A notification's id as the forms send it: the table's bigint identity, as digits. */
const NotificationId = z.string().check(z.regex(/^[1-9][0-9]{0,17}$/));

/** The inbox's forms, each with the notification it acts on (marking all read acts on none). */
export const InboxIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('read'), id: NotificationId }),
  z.object({ intent: z.literal('unread'), id: NotificationId }),
  z.object({ intent: z.literal('archive'), id: NotificationId }),
  z.object({ intent: z.literal('read-all') }),
]);
export type InboxIntent = z.output<typeof InboxIntent>;

export const BAD_INTENT_MESSAGE = 'That is not something the inbox can do. Reload the page and try again.';
export const BAD_ID_MESSAGE = 'That is not a notification’s id. Reload the page and try again.';
export const GONE_MESSAGE = 'That notification is no longer in your inbox. Reload the page.';

function plain400(message: string): Response {
  return new Response(message, { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

/** The form that was sent; a 400 that says what was wrong with it otherwise. */
export function readInboxIntent(formData: FormData): InboxIntent {
  const fields = Object.fromEntries([...formData].filter(([, value]) => typeof value === 'string'));
  const result = InboxIntent.safeParse(fields);
  if (result.success) return result.data;
  throw plain400(
    result.error.issues.some((issue) => issue.path[0] === 'intent') ? BAD_INTENT_MESSAGE : BAD_ID_MESSAGE,
  );
}

/** `?before=<id>`: the page of notifications older than that one; a 400 when it names none. */
export function readBefore(url: URL): number | null {
  const before = url.searchParams.get('before');
  if (before === null) return null;
  if (!NotificationId.safeParse(before).success) throw plain400(BAD_ID_MESSAGE);
  return Number(before);
}

/** A notification as the inbox's read embeds it. */
export interface NotificationRow {
  id: number;
  kind: string;
  data: unknown;
  created_at: string;
  read_at: string | null;
  workspace: { slug: string; name: string } | null;
  actor: { display_name: string; avatar_path: string | null } | null;
}

/** One line of the inbox, ready to show. */
export interface InboxItem {
  id: number;
  actor: string;
  avatarUrl: string | null;
  /** What the actor did, after their name: "assigned you". */
  did: string;
  /** What it was done to, the link's text: "WEB-12 Fix login", or a workspace's name. */
  target: string;
  /** What follows the link: " from To do to Done", " as member". */
  after: string;
  href: string;
  excerpt: string | null;
  workspace: string;
  createdAt: string;
  read: boolean;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

const DID: Record<string, string> = {
  assigned: 'assigned you',
  mentioned: 'mentioned you in',
  commented: 'commented on',
  status_changed: 'moved',
  added_to_workspace: 'added you to',
};

/** A notification as a sentence and the address it opens. */
export function inboxItem(row: NotificationRow): InboxItem {
  const data = (row.data ?? {}) as Record<string, unknown>;
  const task = (data.task ?? {}) as Record<string, unknown>;
  const slug = row.workspace?.slug ?? '';
  const workspaceName = row.workspace?.name ?? '';
  const base = {
    id: row.id,
    actor: row.actor?.display_name || 'Someone',
    avatarUrl: publicAvatarUrl(row.actor?.avatar_path),
    did: DID[row.kind] ?? 'changed',
    excerpt: text(data.excerpt) || null,
    workspace: workspaceName,
    createdAt: row.created_at,
    read: row.read_at !== null,
  };
  if (row.kind === 'added_to_workspace') {
    const role = text(data.role);
    return { ...base, target: workspaceName, after: role ? ` as ${role}` : '', href: `/w/${slug}` };
  }
  // A task's name is its project's key and number: `WEB-12`.
  const ref = text(task.ref);
  const [, key = '', number = ''] = /^(.+)-(\d+)$/.exec(ref) ?? [];
  const href = key ? taskPath(slug, key, Number(number)) : `/w/${slug}`;
  const after =
    row.kind === 'status_changed' && (text(data.from) || text(data.to))
      ? ` from ${text(data.from) || 'a removed status'} to ${text(data.to) || 'a removed status'}`
      : '';
  return { ...base, target: `${ref} ${text(task.title)}`.trim(), after, href };
}
