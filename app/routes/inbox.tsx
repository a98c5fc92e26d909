import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useFetcher, useFetchers, useLoaderData } from '@remix-run/react';
import { Avatar } from '~/components/avatar.tsx';
import { AccountLinks } from '~/components/account-links.tsx';
import { CommandPalette } from '~/components/command-palette.tsx';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { RelativeTime, useClock, type Clock } from '~/components/time.tsx';
import { dataErrorResponse } from '~/utils/data-errors.server.ts';
import { readForm } from '~/utils/form-body.server.ts';
import {
  GONE_MESSAGE,
  INBOX_PAGE_SIZE,
  inboxItem,
  readBefore,
  readInboxIntent,
  type InboxItem,
  type NotificationRow,
} from '~/utils/inbox.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';
import { memberWorkspaces } from '~/utils/workspaces.server.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { readTimeZone } from '~/utils/time-zone.server.ts';

// The inbox: everyone's notifications from every workspace they are in, newest first (the table's
// identity order, which is the order they were written in), a page at a time. RLS shows each person
// their own, and lets them change only read_at and archived_at.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, supabase } = await signedIn(request, context);
  const before = readBefore(new URL(request.url));
  let query = supabase
    .from('notifications')
    .select(
      'id, kind, data, created_at, read_at, workspace:workspaces(slug, name), actor:profiles!notifications_actor_profile_fkey(display_name, avatar_path)',
    )
    .is('archived_at', null)
    .order('id', { ascending: false })
    .limit(INBOX_PAGE_SIZE + 1);
  if (before !== null) query = query.lt('id', before);
  // The command palette's places: the caller's workspaces, read beside the page.
  const [{ data, error }, workspaces] = await Promise.all([query, memberWorkspaces(supabase, user.id)]);
  if (error) throw dataErrorResponse(error);
  const rows = data as unknown as NotificationRow[];
  const items = rows.slice(0, INBOX_PAGE_SIZE).map(inboxItem);
  return json({
    email: user.email,
    items,
    older: rows.length > INBOX_PAGE_SIZE ? (items[items.length - 1]?.id ?? null) : null,
    paged: before !== null,
    workspaces: workspaces.map(({ name, slug }) => ({ name, slug })),
    clock: { now: new Date().toISOString(), timeZone: readTimeZone(request) },
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameSite(request);
  const { user, supabase } = await signedIn(request, context);
  const intent = readInboxIntent(await readForm(request));
  const now = new Date().toISOString();
  const notifications = supabase.from('notifications');
  const { data, error } =
    intent.intent === 'read-all'
      ? await notifications
          .update({ read_at: now })
          .eq('recipient_id', user.id)
          .is('read_at', null)
          .is('archived_at', null)
          .select('id')
      : await notifications
          .update(
            intent.intent === 'read'
              ? { read_at: now }
              : intent.intent === 'unread'
                ? { read_at: null }
                : { archived_at: now },
          )
          .eq('id', Number(intent.id))
          .select('id');
  if (error) throw dataErrorResponse(error);
  // Someone else's, or gone with its task or workspace: RLS leaves nothing to change.
  if (intent.intent !== 'read-all' && data.length !== 1) {
    throw new Response(GONE_MESSAGE, {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  // Back to the page the form was on (its `?before=`), with or without JavaScript.
  return redirectWithSession(`/inbox${new URL(request.url).search}`, request, context);
}

/** Each row's forms share one fetcher, so a row shows what it was last asked at once. */
const rowKey = (id: number) => `inbox-${id}`;
const READ_ALL = 'inbox-read-all';

export default function Inbox() {
  const { email, items, older, paged, clock: serverClock, workspaces } = useLoaderData<typeof loader>();
  const clock = useClock(serverClock);
  const allRead = useFetchers().some((f) => f.key === READ_ALL && f.formData);
  const readAll = useFetcher({ key: READ_ALL });
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <a href="/w" className="text-sm font-semibold uppercase tracking-wide text-indigo-600">
          Crewboard
        </a>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm font-medium text-slate-700">
          <span className="font-normal text-slate-600">{email}</span>
          <Link to="/w" className="hover:underline">
            Workspaces
          </Link>
          <AccountLinks />
        </div>
      </header>
      <main className="mt-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold">Inbox</h1>
          {items.length > 0 ? (
            <readAll.Form method="post">
              <button
                type="submit"
                name="intent"
                value="read-all"
                className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100"
              >
                Mark all read
              </button>
            </readAll.Form>
          ) : null}
        </div>
        {items.length === 0 ? (
          <p className="mt-6 rounded-lg border border-slate-200 bg-white px-4 py-8 text-center text-slate-600">
            {paged ? 'Nothing older.' : 'You’re all caught up.'}
          </p>
        ) : (
          <ul
            aria-label="Notifications"
            className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
          >
            {items.map((item) => (
              <InboxRow key={item.id} item={item} clock={clock} allRead={allRead} />
            ))}
          </ul>
        )}
        {older !== null ? (
          <p className="mt-4 text-center">
            <Link
              to={`/inbox?before=${older}`}
              className="text-sm font-medium text-indigo-700 hover:underline"
            >
              Show older
            </Link>
          </p>
        ) : null}
        {paged ? (
          <p className="mt-2 text-center">
            <Link to="/inbox" className="text-sm font-medium text-indigo-700 hover:underline">
              Back to the newest
            </Link>
          </p>
        ) : null}
        <CommandPalette workspace={null} workspaces={workspaces} />
      </main>
    </div>
  );
}

const ROW_BUTTON = 'rounded-md px-2 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100';

function InboxRow({ item, clock, allRead }: { item: InboxItem; clock: Clock; allRead: boolean }) {
  const fetcher = useFetcher({ key: rowKey(item.id) });
  // What the row will be once its form lands (optimistic with JavaScript).
  const asked = fetcher.formData?.get('intent');
  if (asked === 'archive') return null;
  const read = asked === 'read' ? true : asked === 'unread' ? false : allRead || item.read;
  return (
    <li className={`flex gap-3 px-4 py-3 ${read ? '' : 'bg-indigo-50/60'}`}>
      <Avatar name={item.actor} url={item.avatarUrl} decorative />
      {/* On a phone the row's buttons go under its text, which then has the width to itself. */}
      <div className="flex min-w-0 flex-1 flex-col gap-1 sm:flex-row sm:gap-3">
        <div className="min-w-0 flex-1">
          <p className={read ? 'text-slate-700' : 'font-semibold text-slate-900'}>
            {read ? null : (
              <span className="mr-2 inline-block rounded bg-indigo-700 px-1.5 py-0.5 text-xs font-semibold uppercase text-white">
                Unread
              </span>
            )}
            {item.actor} {item.did}{' '}
            <Link to={item.href} className="text-indigo-700 underline-offset-2 hover:underline">
              {item.target}
            </Link>
            {item.after}
          </p>
          {item.excerpt ? <p className="mt-1 truncate text-sm text-slate-600">“{item.excerpt}”</p> : null}
          <p className="mt-1 text-xs text-slate-500">
            {item.workspace} · <RelativeTime date={item.createdAt} clock={clock} />
          </p>
        </div>
        <fetcher.Form method="post" className="-ml-2 flex shrink-0 items-start gap-1 sm:ml-0">
          <input type="hidden" name="id" value={item.id} />
          <button type="submit" name="intent" value={read ? 'unread' : 'read'} className={ROW_BUTTON}>
            {read ? 'Mark unread' : 'Mark read'}
          </button>
          <button type="submit" name="intent" value="archive" className={ROW_BUTTON}>
            Archive
          </button>
        </fetcher.Form>
      </div>
    </li>
  );
}

export const meta: MetaFunction = () => [{ title: 'Inbox · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
