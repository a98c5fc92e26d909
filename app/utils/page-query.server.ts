// A page's first backend request, shared by every loader of the request that can use it.
//
// Each signed-in page load asks the backend whether the session is still active (auth.server.ts), the
// workspace pages also who the caller is in the workspace (workspace.server.ts), and the page for its
// own data. A route that can fetch all of it in one call (the board: `board_page`) declares that call
// here, synchronously, when its loader starts; Remix starts every loader of a request in one pass, so
// the declaration is in place before the session check runs. The session check then starts the call
// and reads the session's status from its answer, the membership comes from the same answer, and the
// route reads its data from it: one request instead of three. Where no route declared one, each part
// makes its own request as before.
import type { AppLoadContext } from '@remix-run/node';
import type { WorkspaceRole } from './roles.ts';
import { getSupabase, rpcAsUser } from './supabase.server.ts';

export interface PageQueryAnswer {
  /** `session_status()`: 'active', 'mfa_required' or 'ended'. */
  session: string;
  /**
   * The caller's membership of the workspace, null when they have none (or the session is not
   * active); absent from answers of pages outside a workspace.
   */
  membership?: {
    workspace: { id: string; name: string; slug: string; is_personal: boolean };
    role: WorkspaceRole;
    display_name: string | null;
    projects: Array<{ id: string; key: string; name: string; archived_at: string | null }>;
  } | null;
}

type Outcome<T> = { data: T | null; error: unknown };

/**
 * Makes the call. `accessToken` is the request's access token when the session check found it checked
 * and far from expiry without a Supabase client (auth.server.ts): the call can then be made with it
 * (supabase.server.ts `rpcAsUser`) rather than through the request's client. Null otherwise.
 */
type Run<T> = (accessToken: string | null) => PromiseLike<Outcome<T>>;

interface Plan<T extends PageQueryAnswer> {
  /** The workspace slug whose membership the answer holds, if any. */
  slug: string | null;
  run: Run<T>;
  started?: Promise<Outcome<T>>;
}

const plans = new WeakMap<object, Plan<PageQueryAnswer>>();

/** Declares the request's combined first query (the first declaration wins). */
export function planPageQuery<T extends PageQueryAnswer>(
  context: AppLoadContext,
  slug: string | null,
  run: Run<T>,
): void {
  if (!plans.has(context)) plans.set(context, { slug, run });
}

/**
 * The combined query's answer (started on first use, by the session check, which passes the access
 * token it may have), or undefined when the request has none.
 */
export function pageQuery<T extends PageQueryAnswer = PageQueryAnswer>(
  context: AppLoadContext,
  slug?: string,
  accessToken: string | null = null,
): Promise<Outcome<T>> | undefined {
  const plan = plans.get(context);
  if (!plan || (slug !== undefined && plan.slug !== slug)) return undefined;
  plan.started ??= Promise.resolve(plan.run(accessToken)).then(
    (outcome) => outcome,
    (error: unknown) => ({ data: null, error }),
  );
  return plan.started as Promise<Outcome<T>>;
}

/**
 * Declares a page's database function (`account_page`, `overview_page`, `board_page`) as the request's
 * first query. With a checked token far from expiry it goes straight to PostgREST (`rpcAsUser`),
 * with no Supabase client to build; otherwise through the request's client, which refreshes.
 */
export function planPageRpc<T extends PageQueryAnswer>(
  request: Request,
  context: AppLoadContext,
  slug: string | null,
  fn: 'account_page' | 'overview_page' | 'board_page',
  args: Record<string, unknown> = {},
): void {
  planPageQuery<T>(context, slug, (accessToken) =>
    accessToken
      ? rpcAsUser<T>(fn, accessToken, args)
      : getSupabase(request, context)
          .supabase.rpc(fn, args as never)
          // The function's JSON has the shape its migration documents.
          .then(({ data, error }) => ({ data: data as unknown as T | null, error })),
  );
}
