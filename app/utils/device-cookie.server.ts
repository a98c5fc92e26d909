// A browser that has signed in to an account before keeps an allowance of sign-in attempts of its own
// for that account, so that nobody can keep the owner out by failing on purpose: OWASP's "Slow Down
// Online Guessing Attacks with Device Cookies". Attempts from a browser without one count against the
// account's allowance, shared by every unknown browser (rate-limit.server.ts); attempts from a browser
// with one count against that device cookie's own allowance, so a device cookie that keeps failing is
// refused in turn, not the account.
//
// The cookie holds, for each account the browser completed a sign-in to (at most five, newest first),
// the account's keys (hashes of its email and of its user id, as the limits name accounts) and a
// random id that names the device's allowance. It is signed with SESSION_SECRET, so only this app can
// write one; it is issued only once a sign-in is complete (a second factor owed is not complete), so
// knowing a password alone never buys another allowance for guessing the authenticator's codes.
import { createHash, randomUUID } from 'node:crypto';
import { createCookie } from '@remix-run/node';
import { z } from 'zod';
import { config } from './env.server.ts';
import { isHttps } from './session/supabase.server.ts';

export const DEVICE_COOKIE = 'crewboard_device';

/** Accounts one browser is remembered for; a shared computer has a few. */
const MAX_ACCOUNTS = 5;

/** As long as a session cookie lives (SPEC.md section 9). */
const MAX_AGE_SECONDS = 400 * 24 * 60 * 60;

const Entries = z
  .array(z.object({ accounts: z.array(z.string().max(64)).max(2), device: z.uuid() }))
  .max(MAX_ACCOUNTS);

type Entry = z.infer<typeof Entries>[number];

/** How the sign-in limits name an account (an email, any letter case, or a user id): a hash of it. */
export const accountKey = (account: string) =>
  createHash('sha256').update(account.trim().toLowerCase()).digest('base64url');

function deviceCookie(request: Request) {
  return createCookie(DEVICE_COOKIE, {
    secrets: config().sessionSecrets,
    httpOnly: true,
    secure: isHttps(request),
    sameSite: 'lax',
    path: '/',
    maxAge: MAX_AGE_SECONDS,
  });
}

/** The entries of the request's device cookie: none when it is missing, forged or malformed. */
async function entriesOf(request: Request): Promise<Entry[]> {
  const header = request.headers.get('Cookie') ?? '';
  if (!header.includes(`${DEVICE_COOKIE}=`)) return [];
  // parse() answers null when no secret's signature matches.
  const parsed = Entries.safeParse(await deviceCookie(request).parse(header));
  return parsed.success ? parsed.data : [];
}

/** The id of the allowance this browser has for `account` (an email or a user id), or null. */
export async function deviceAllowance(request: Request, account: string): Promise<string | null> {
  const key = accountKey(account);
  return (await entriesOf(request)).find((entry) => entry.accounts.includes(key))?.device ?? null;
}

export interface SignedInAccount {
  id: string;
  email?: string | undefined;
  /** The account's authenticator apps, as the sign-in's answer lists them. */
  factors?: Array<{ status: string }> | undefined;
}

/**
 * Adds the device cookie for a completed sign-in to its redirect: a fresh allowance for this account,
 * the other accounts the browser knows kept. A sign-in that still owes its second factor gets none;
 * the MFA step adds it once the code is right.
 */
export async function withDeviceCookie(
  response: Response,
  request: Request,
  account: SignedInAccount,
): Promise<Response> {
  if (account.factors?.some((factor) => factor.status === 'verified')) return response;
  const keys = [account.id, ...(account.email ? [account.email] : [])].map(accountKey);
  const others = (await entriesOf(request)).filter((entry) => !entry.accounts.some((k) => keys.includes(k)));
  const entries: Entry[] = [{ accounts: keys, device: randomUUID() }, ...others].slice(0, MAX_ACCOUNTS);
  response.headers.append('Set-Cookie', await deviceCookie(request).serialize(entries));
  return response;
}
