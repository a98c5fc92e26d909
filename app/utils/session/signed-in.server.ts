// The one call every signed-in loader and action starts with:
//
//   const { user, member, data, supabase } = await signedIn(request, context, {
//     workspace: params.workspace,
//     query: boardPage(…),
//   });
//
// It checks the session (the token's signature, then whether the session is still active and at the
// assurance level the account needs), sends anyone who fails that to sign in, loads the caller's
// membership of `workspace` (a 404 below `minRole`), and runs the page's `query`. Given a query, all of
// that is one backend request: the query's database function answers the session check and the
// membership too (docs/decisions/014-one-signed-in-request-path.md).
import type { AppLoadContext } from '@remix-run/node';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/types/database.ts';
import { dataErrorResponse, notFound } from '../data-errors.server.ts';
import type { WorkspaceRole } from '../roles.ts';
import { membershipOf, type Membership } from './membership.server.ts';
import { startPageCall, type PageCall, type PageQuery, type PageQueryAnswer } from './page-query.server.ts';
import { requestState } from './request-state.server.ts';
import { getSupabase } from './supabase.server.ts';
import { getSignedInUser, redirectWithSession, type SignedInUser } from './user.server.ts';

export interface Page<T extends PageQueryAnswer> {
  /** The page's one backend call (page-query.server.ts); without it, `data` is undefined. */
  query?: PageQuery<T>;
}

export interface WorkspacePage<T extends PageQueryAnswer> extends Page<T> {
  /** The workspace's slug (`params.workspace`); a 404 unless the caller is a member. */
  workspace: string | undefined;
  /** The least role the page needs (default: any member, viewers included). */
  minRole?: WorkspaceRole;
}

export interface SignedIn<T> {
  user: SignedInUser;
  /** The page query's answer. */
  data: T;
  /** The request's Supabase client, acting as the user under RLS (built on first use). */
  supabase: SupabaseClient<Database>;
}

export function signedIn<T extends PageQueryAnswer = never>(
  request: Request,
  context: AppLoadContext,
  page: WorkspacePage<T>,
): Promise<SignedIn<T> & { member: Membership }>;
export function signedIn<T extends PageQueryAnswer = never>(
  request: Request,
  context: AppLoadContext,
  page?: Page<T>,
): Promise<SignedIn<T>>;
export async function signedIn<T extends PageQueryAnswer>(
  request: Request,
  context: AppLoadContext,
  page: Page<T> | WorkspacePage<T> = {},
): Promise<SignedIn<T | undefined> & { member?: Membership }> {
  // Remix calls the loaders after an action with GET requests of their own.
  if (request.method !== 'GET' && request.method !== 'HEAD') requestState(context).actionRan = true;
  const workspace = 'workspace' in page ? page.workspace : undefined;
  // Taken before anything here waits, so that the request's session check can use it.
  const call = page.query ? takePageCall(request, context, page.query, workspace ?? null) : undefined;
  const user = await getSignedInUser(request, context);
  if (!user || user.needsMfa) {
    // Signed out, or at the first of two steps: either way, back here afterwards.
    const url = new URL(request.url);
    const next = encodeURIComponent(`${url.pathname}${url.search}`);
    throw redirectWithSession(user ? `/login/mfa?next=${next}` : `/login?next=${next}`, request, context);
  }
  const member =
    'workspace' in page
      ? await membershipOf(request, context, user, page.workspace, page.minRole ?? 'viewer')
      : undefined;
  let data: T | undefined;
  if (call) {
    const answer = await startPageCall(request, context, call, requestState(context).checkedToken);
    if (answer.error) throw dataErrorResponse(answer.error);
    if (!answer.data) throw notFound();
    // The function's JSON has the shape its migration documents; the route's query names it.
    data = answer.data as T;
  }
  return {
    user,
    member,
    data,
    get supabase() {
      return getSupabase(request, context).supabase;
    },
  };
}

/** The request's call of this page function, registered on first use. */
function takePageCall(
  request: Request,
  context: AppLoadContext,
  query: PageQuery<PageQueryAnswer>,
  workspace: string | null,
): PageCall {
  const state = requestState(context);
  const known = state.pageCalls.get(query.fn);
  if (known) return known;
  const call: PageCall = { query, workspace };
  state.pageCalls.set(query.fn, call);
  // A page load whose session was checked before its loader gave the query pays a second backend
  // request. After an action (a form posted without JavaScript is answered with its page, drawn in
  // the same request) that is expected; otherwise it means a loader waited for something first.
  if (state.sessionCall !== undefined && !state.actionRan)
    console.warn(
      `signedIn() was given ${query.fn} after the session check of ${new URL(request.url).pathname}: ` +
        'the page makes an extra backend request. Call signedIn() before the loader awaits anything.',
    );
  return call;
}
