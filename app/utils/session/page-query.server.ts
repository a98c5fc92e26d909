// A page's one backend call: a database function that answers, together, whether the session is still
// active (what `session_status()` says), the caller's membership of the page's workspace, and the
// page's own data. A loader passes one to signedIn() (signed-in.server.ts), which makes it the
// request's session check when it can; see docs/decisions/014-one-signed-in-request-path.md.
import type { AppLoadContext } from '@remix-run/node';
import type { WorkspaceRole } from '../roles.ts';
import type { SidebarView } from './membership.server.ts';
import { getSupabase, rpcAsUser } from './supabase.server.ts';

/** The database functions written to be a page's one call (each one's migration documents its JSON). */
export type PageFunction = 'account_page' | 'overview_page' | 'board_page' | 'list_page';

/** What every page function answers besides the page's own data. */
export interface PageQueryAnswer {
  /** `session_status()`: 'active', 'mfa_required' or 'ended'. */
  session: string;
  /**
   * The caller's membership of the workspace named in the arguments, null when they have none (or the
   * session is not active); absent from the answers of pages outside a workspace.
   */
  membership?: {
    workspace: { id: string; name: string; slug: string; is_personal: boolean };
    role: WorkspaceRole;
    display_name: string | null;
    projects: Array<{ id: string; key: string; name: string; archived_at: string | null }>;
    /** The caller's unread notifications, up to 100 (board_page and overview_page say it). */
    unread?: number;
    /** The caller's saved views of the workspace (board_page and overview_page say them). */
    views?: SidebarView[];
  } | null;
}

/** A page function and its arguments, typed with what it answers. */
export interface PageQuery<T extends PageQueryAnswer> {
  fn: PageFunction;
  args: Record<string, unknown>;
  /** Never set: it carries the answer's type from the route that writes the query to its loader. */
  answer?: T;
}

export function pageQuery<T extends PageQueryAnswer>(
  fn: PageFunction,
  args: Record<string, unknown> = {},
): PageQuery<T> {
  return { fn, args };
}

export type Outcome<T> = { data: T | null; error: unknown };

/** A page query given to signedIn() in this request: the workspace it answers for, and its call. */
export interface PageCall {
  query: PageQuery<PageQueryAnswer>;
  workspace: string | null;
  started?: Promise<Outcome<PageQueryAnswer>>;
}

/**
 * Makes the call, once per request. With an access token already checked and far from expiry it goes
 * straight to PostgREST (`rpcAsUser`), with no Supabase client to build; otherwise through the
 * request's client, which refreshes the session first if it is due.
 */
export function startPageCall(
  request: Request,
  context: AppLoadContext,
  call: PageCall,
  checkedToken: string | undefined,
): Promise<Outcome<PageQueryAnswer>> {
  const { fn, args } = call.query;
  call.started ??= Promise.resolve(
    checkedToken
      ? rpcAsUser<PageQueryAnswer>(fn, checkedToken, args)
      : getSupabase(request, context)
          // Which function is known only at run time, so supabase-js's typed rpc() cannot name it.
          .supabase.rpc(fn, args as never)
          // The function's JSON has the shape its migration documents.
          .then(({ data, error }) => ({ data: data as unknown as PageQueryAnswer | null, error })),
  ).then(
    (outcome) => outcome,
    (error: unknown) => ({ data: null, error }),
  );
  return call.started;
}
