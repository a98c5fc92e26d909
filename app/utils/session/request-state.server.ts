// What the loaders and actions of one request share about its session, in one place.
//
// A document request runs the loader of every route it matches at once (the root, the workspace
// layout, the board…), each as its own function; they must still refresh the session once, write its
// cookies once, check it once and ask the backend once. Remix gives each request its own load-context
// object (remix-serve passes none, and the server runtime makes a fresh `{}`), so that object is the
// key for "this request".
import type { AppLoadContext } from '@remix-run/node';
import type { CookieSession } from './cookie.server.ts';
import type { Membership } from './membership.server.ts';
import type { PageCall } from './page-query.server.ts';
import type { RequestSupabase } from './supabase.server.ts';
import type { SignedInUser } from './user.server.ts';

/** Who is signed in, or 'unavailable' when the backend could not say. An outcome, never a thrown
 * Response: Remix reads the body of every thrown Response, and a body can be read only once. */
export type UserOutcome = SignedInUser | null | 'unavailable';

/** The caller's membership of one workspace, as an outcome for the same reason. */
export type MembershipOutcome = { membership: Membership } | { status: 404 } | { error: unknown };

export interface RequestState {
  /** The @supabase/ssr client, built when something first needs it. */
  supabase?: RequestSupabase;
  /** The session the cookies carry, decoded once. */
  cookie?: CookieSession | 'none' | 'unreadable';
  /** The access token, when its signature had been checked before and it is far from expiry. */
  checkedToken?: string;
  user?: Promise<UserOutcome>;
  /** An action ran in this request: a form posted without JavaScript, whose page is drawn after it. */
  actionRan?: boolean;
  /** The page calls signedIn() was given, by database function, in the order they came. */
  pageCalls: Map<string, PageCall>;
  /**
   * The page call whose answer held the session check: undefined until the check is made, null when
   * no loader had given one by then (the check then asked `session_status()` on its own).
   */
  sessionCall?: PageCall | null;
  memberships: Map<string, Promise<MembershipOutcome>>;
}

const states = new WeakMap<AppLoadContext, RequestState>();

export function requestState(context: AppLoadContext): RequestState {
  let state = states.get(context);
  if (!state) {
    state = { pageCalls: new Map(), memberships: new Map() };
    states.set(context, state);
  }
  return state;
}
