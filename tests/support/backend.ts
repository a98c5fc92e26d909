// Helpers for tests that talk to the local backend the way the app does: through supabase-js, and
// read its mail through the mailbox API. They use the shared test backend (tests/setup/backend.ts)
// unless given another (`BackendAddress`: a file's private backend, tests/support/private-backend.ts).
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { inject } from 'vitest';
import { until } from './until.ts';

export const backend = () => inject('backend');

/** What a helper needs to know of a backend: the shared one's or a private one's. */
export interface BackendAddress {
  apiUrl: string;
  mailUrl: string;
  anonKey: string;
  serviceRoleKey: string;
}

let ipCounter = 0;
/** A distinct client address per test client, so per-IP rate limits of one test never hit another. */
export function testIp(): string {
  ipCounter += 1;
  return `10.${(process.pid >> 8) & 255}.${process.pid & 255}.${(ipCounter % 250) + 1}`;
}

export interface ClientOptions {
  ip?: string;
  fetch?: typeof fetch;
  key?: string;
  /** Another backend than the shared one. */
  at?: BackendAddress;
}

export function anonClient(options: ClientOptions = {}): SupabaseClient {
  const { apiUrl, anonKey } = options.at ?? backend();
  return createClient(apiUrl, options.key ?? anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { 'X-Forwarded-For': options.ip ?? testIp() }, fetch: options.fetch },
  });
}

/** A client that keeps its PKCE code verifier in `storage`, like a browser keeps it in a cookie. */
export function pkceClient(storage: Map<string, string>): SupabaseClient {
  const { apiUrl, anonKey } = backend();
  return createClient(apiUrl, anonKey, {
    auth: {
      flowType: 'pkce',
      persistSession: true,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      storage: {
        getItem: (k) => storage.get(k) ?? null,
        setItem: (k, v) => void storage.set(k, v),
        removeItem: (k) => void storage.delete(k),
      },
    },
    global: { headers: { 'X-Forwarded-For': testIp() } },
  });
}

export function adminClient(at: BackendAddress = backend()): SupabaseClient {
  return anonClient({ key: at.serviceRoleKey, at });
}

export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${randomUUID().slice(0, 8)}@example.test`;
}

export interface MailSummary {
  ID: string;
  Subject: string;
  From: { Name: string; Address: string };
  To: Array<{ Address: string }>;
}

export interface MailMessage extends MailSummary {
  Text: string;
  HTML: string;
}

/** All mail to `address`, newest first. */
export async function mailTo(address: string, at: BackendAddress = backend()): Promise<MailSummary[]> {
  const url = `${at.mailUrl}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`;
  const res = await fetch(url);
  const body = (await res.json()) as { messages: MailSummary[] };
  return body.messages;
}

export async function latestMailTo(address: string): Promise<MailMessage> {
  const [first] = await mailTo(address);
  if (!first) throw new Error(`no mail to ${address}`);
  const res = await fetch(`${backend().mailUrl}/api/v1/message/${first.ID}`);
  return (await res.json()) as MailMessage;
}

/** The newest mail to `address` whose subject matches `subject` (any, by default), waiting for it to arrive. */
export async function awaitMail(
  address: string,
  options: { subject?: RegExp; at?: BackendAddress } = {},
): Promise<MailMessage> {
  const at = options.at ?? backend();
  const id = await until(`an email to ${address}`, async () => {
    const found = (await mailTo(address, at)).find(
      (m) => !options.subject || options.subject.test(m.Subject),
    );
    return found?.ID;
  });
  return (await (await fetch(`${at.mailUrl}/api/v1/message/${id}`)).json()) as MailMessage;
}

/** The 6-digit code in the newest email to `address`. */
export async function latestCodeFor(address: string): Promise<string> {
  const mail = await latestMailTo(address);
  const code = /\b(\d{6})\b/.exec(mail.Text)?.[1];
  if (!code) throw new Error(`no 6-digit code in "${mail.Subject}" to ${address}`);
  return code;
}

/** Every link in the newest email to `address`. */
export async function latestLinksFor(address: string): Promise<string[]> {
  const mail = await latestMailTo(address);
  return [...mail.HTML.matchAll(/href="([^"]+)"/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'));
}

/** A confirmed user with a password, made through the admin API (of the shared backend, or `at`). */
export async function confirmedUser(
  tag = 'user',
  password = 'correct-horse-9',
  at: BackendAddress = backend(),
): Promise<{ email: string; password: string; id: string }> {
  const email = uniqueEmail(tag);
  const { data, error } = await adminClient(at).auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (error || !data.user) throw error ?? new Error('createUser returned no user');
  return { email, password, id: data.user.id };
}
