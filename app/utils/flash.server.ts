// A one-time message that survives a redirect ("Saved.", "Your account has been deleted."): the
// action that redirects sets it in its own signed cookie, the root loader of the next page reads it
// and clears it, and the page shows it as a toast. It replaces flags in the address (?deleted=1),
// which stayed in the history, in bookmarks and in a reload.
//
// The cookie carries a kind, never text: the toast can only say one of the sentences below, so
// nothing a visitor sends is ever reflected. The signature keeps another site or a script on a
// sibling subdomain from planting one.
import type { AppLoadContext } from '@remix-run/node';
import { createCookie } from '@remix-run/node';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { redirectWithSession } from './session/user.server.ts';
import { config } from './env.server.ts';
import { isHttps } from './session/supabase.server.ts';

const FlashKindSchema = z.enum([
  'profile_saved',
  'avatar_updated',
  'avatar_removed',
  'password_changed',
  'email_changed',
  'account_deleted',
  'mfa_enrolled',
  'mfa_removed',
  'mfa_off',
  'task_restored',
  'tasks_imported',
]);
const FlashValue = z.object({ kind: FlashKindSchema });

export type FlashKind = z.infer<typeof FlashKindSchema>;

export const FLASH_MESSAGES: Record<FlashKind, string> = {
  profile_saved: 'Saved.',
  avatar_updated: 'Your picture was updated.',
  avatar_removed: 'Your picture was removed.',
  password_changed: 'Your password has been changed.',
  email_changed: 'Your email address has been changed.',
  account_deleted: 'Your account has been deleted.',
  mfa_enrolled: 'Two-step verification is on. Each sign-in will ask for a code from your authenticator app.',
  mfa_removed: 'The authenticator app was removed.',
  mfa_off: 'The authenticator app was removed. Two-step verification is off.',
  task_restored: 'The task was restored.',
  tasks_imported: 'The tasks were imported.',
};

export const FLASH_COOKIE = 'crewboard_flash';

/** What the page shows: the sentence, and an id that tells one flash from the next with the same text. */
export interface Flash {
  id: string;
  message: string;
}

/**
 * A signed cookie that lives for one redirect: the flash's, and others of its kind (the board's
 * "moved to the trash" notice, trash.server.ts).
 */
export function oneTimeCookie(name: string, request: Request) {
  return createCookie(name, {
    secrets: config().sessionSecrets,
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(request),
    path: '/',
    // Long enough to follow a redirect on a slow connection; a flash nobody saw is not worth keeping.
    maxAge: 120,
  });
}

/**
 * What the one-time cookie `name` of this request holds, if its signature holds and `schema` takes
 * it, and the Set-Cookie header that clears it (null when there was no cookie to clear). A forged or
 * stale cookie is cleared too, and gives nothing.
 */
export async function readOneTimeCookie<T>(
  request: Request,
  name: string,
  schema: z.ZodType<T>,
): Promise<{ value: T | null; clear: string | null }> {
  const header = request.headers.get('Cookie') ?? '';
  if (!header.split(';').some((part) => part.trim().startsWith(`${name}=`))) {
    return { value: null, clear: null };
  }
  const cookie = oneTimeCookie(name, request);
  // parse() answers null when no secret's signature matches.
  const parsed = schema.safeParse(await cookie.parse(header));
  const clear = await cookie.serialize('', { maxAge: 0, expires: new Date(0) });
  return { value: parsed.success ? parsed.data : null, clear };
}

const flashCookie = (request: Request) => oneTimeCookie(FLASH_COOKIE, request);

/** The Set-Cookie header that carries `kind` to the next page. */
export function flashCookieHeader(kind: FlashKind, request: Request): Promise<string> {
  return flashCookie(request).serialize({ kind });
}

/** A redirect with the session's cookies (see redirectWithSession) and a flash for the page it leads to. */
export async function redirectWithFlash(
  url: string,
  kind: FlashKind,
  request: Request,
  context: AppLoadContext,
  init: ResponseInit = {},
): Promise<Response> {
  const response = redirectWithSession(url, request, context, init);
  response.headers.append('Set-Cookie', await flashCookieHeader(kind, request));
  return response;
}

/**
 * The flash this request carries, if its signature holds and its kind is known, and the Set-Cookie
 * header that clears it (null when there was no cookie to clear). A forged or stale cookie is cleared
 * too, and shows nothing.
 */
export async function readFlash(request: Request): Promise<{ flash: Flash | null; clear: string | null }> {
  const { value, clear } = await readOneTimeCookie(request, FLASH_COOKIE, FlashValue);
  return { flash: value ? { id: randomUUID(), message: FLASH_MESSAGES[value.kind] } : null, clear };
}
