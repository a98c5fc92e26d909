// auth.users and its neighbours, read and written with GoTrue's column names, and the User JSON that
// GoTrue returns (supabase/auth internal/models/user.go, identity.go, factor.go).
import { randomUUID } from 'node:crypto';
import type pg from 'pg';

export type Queryable = pg.Pool | pg.PoolClient;
type Json = Record<string, unknown>;

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  invited_at: Date | null;
  confirmation_token: string | null;
  confirmation_sent_at: Date | null;
  recovery_token: string | null;
  recovery_sent_at: Date | null;
  email_change_token_new: string | null;
  email_change: string | null;
  email_change_sent_at: Date | null;
  email_change_token_current: string | null;
  email_change_confirm_status: number | null;
  reauthentication_token: string | null;
  reauthentication_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Json | null;
  raw_user_meta_data: Json | null;
  created_at: Date | null;
  updated_at: Date | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  confirmed_at: Date | null;
  banned_until: Date | null;
  deleted_at: Date | null;
  is_anonymous: boolean;
  is_sso_user: boolean;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Json;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
  email: string | null;
}

export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: string;
  created_at: Date;
  updated_at: Date;
  secret: string | null;
  phone: string | null;
  last_challenged_at: Date | null;
}

const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, invited_at, confirmation_token,
  confirmation_sent_at, recovery_token, recovery_sent_at, email_change_token_new, email_change, email_change_sent_at,
  email_change_token_current, email_change_confirm_status, reauthentication_token, reauthentication_sent_at,
  last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, phone, phone_confirmed_at,
  confirmed_at, banned_until, deleted_at, is_anonymous, is_sso_user`;

export async function findUserById(db: Queryable, id: string, forUpdate = false): Promise<UserRow | null> {
  if (!isUuid(id)) return null;
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where id = $1${forUpdate ? ' for update' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findUserByEmail(
  db: Queryable,
  email: string,
  forUpdate = false,
): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users
      where instance_id = '00000000-0000-0000-0000-000000000000' and lower(email) = lower($1) and aud = 'authenticated'
        and is_sso_user = false${forUpdate ? ' for update' : ''}`,
    [email],
  );
  return rows[0] ?? null;
}

export async function createUser(
  db: Queryable,
  input: {
    id?: string;
    /** null for an anonymous user, who has no email and no identity. */
    email: string | null;
    anonymous?: boolean;
    password?: string | null;
    passwordHash?: string | null;
    userMetadata?: Json;
    appMetadata?: Json;
    confirmed?: boolean;
    role?: string;
  },
): Promise<UserRow> {
  const id = input.id ?? randomUUID();
  const anonymous = input.anonymous ?? false;
  const app = anonymous ? {} : { provider: 'email', providers: ['email'], ...(input.appMetadata ?? {}) };
  const { rows } = await db.query<UserRow>(
    // GoTrue's User holds the token columns as Go strings and inserts '' in each (internal/models/user.go);
    // four of them have no column default, so they are named here.
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
        raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous,
        confirmation_token, recovery_token, email_change_token_new, email_change, email_change_token_current,
        phone_change, phone_change_token, reauthentication_token)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', $2, lower($3),
        coalesce($4, case when $5::text is null then null else extensions.crypt($5, extensions.gen_salt('bf', 10)) end),
        case when $6 then now() end, $7, $8, now(), now(), $9,
        '', '', '', '', '', '', '', '')
     returning ${USER_COLUMNS}`,
    [
      id,
      input.role ?? 'authenticated',
      input.email,
      input.passwordHash ?? null,
      input.password ?? null,
      input.confirmed ?? false,
      app,
      input.userMetadata ?? {},
      anonymous,
    ],
  );
  const user = rows[0];
  if (!user) throw new Error('insert into auth.users returned no row');
  if (anonymous) return user;
  await db.query(
    `insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values (gen_random_uuid(), $1::text, $1::uuid, $2, 'email', now(), now(), now())`,
    [
      id,
      {
        sub: id,
        email: user.email,
        email_verified: false,
        phone_verified: false,
        ...(input.userMetadata ?? {}),
      },
    ],
  );
  return user;
}

export async function passwordMatches(db: Queryable, userId: string, password: string): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>(
    `select encrypted_password is not null and encrypted_password <> ''
        and encrypted_password = extensions.crypt($2, encrypted_password) as ok
       from auth.users where id = $1`,
    [userId, password],
  );
  return rows[0]?.ok ?? false;
}

export async function setPassword(db: Queryable, userId: string, password: string): Promise<void> {
  await db.query(
    `update auth.users set encrypted_password = extensions.crypt($2, extensions.gen_salt('bf', 10)), updated_at = now()
      where id = $1`,
    [userId, password],
  );
}

export async function loadIdentities(db: Queryable, userId: string): Promise<IdentityRow[]> {
  const { rows } = await db.query<IdentityRow>(
    'select * from auth.identities where user_id = $1 order by created_at',
    [userId],
  );
  return rows;
}

export async function loadFactors(db: Queryable, userId: string): Promise<FactorRow[]> {
  const { rows } = await db.query<FactorRow>(
    'select * from auth.mfa_factors where user_id = $1 order by created_at',
    [userId],
  );
  return rows;
}

export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/** GoTrue serialises times as RFC 3339 with fractional seconds. */
export function iso(value: Date | null | undefined): string | undefined {
  return value ? value.toISOString() : undefined;
}

export function isBanned(user: UserRow): boolean {
  return user.banned_until !== null && user.banned_until.getTime() > Date.now();
}

export function identityJson(identity: IdentityRow): Json {
  return {
    identity_id: identity.id,
    id: identity.provider_id,
    user_id: identity.user_id,
    identity_data: identity.identity_data,
    provider: identity.provider,
    last_sign_in_at: iso(identity.last_sign_in_at),
    created_at: iso(identity.created_at),
    updated_at: iso(identity.updated_at),
    email: identity.email ?? undefined,
  };
}

/** A factor as GoTrue's models.Factor serialises: no secret, friendly_name only when set. */
export function factorJson(factor: FactorRow): Json {
  const json: Json = {
    id: factor.id,
    created_at: iso(factor.created_at),
    updated_at: iso(factor.updated_at),
    status: factor.status,
    friendly_name: factor.friendly_name || undefined,
    factor_type: factor.factor_type,
    phone: factor.phone ?? '',
    last_challenged_at: iso(factor.last_challenged_at) ?? null,
  };
  if (json.friendly_name === undefined) delete json.friendly_name;
  return json;
}

/** The User object, with GoTrue's keys in GoTrue's order; unset optional fields are omitted. */
export function userJson(user: UserRow, identities: IdentityRow[], factors: FactorRow[] = []): Json {
  const json: Json = {
    id: user.id,
    aud: user.aud ?? '',
    role: user.role ?? '',
    email: user.email ?? '',
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: user.phone ?? '',
    phone_confirmed_at: iso(user.phone_confirmed_at),
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    new_email: user.email_change || undefined,
    email_change_sent_at: iso(user.email_change_sent_at),
    invited_at: iso(user.invited_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: identities.map(identityJson),
    factors: factors.length > 0 ? factors.map(factorJson) : undefined,
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    banned_until: iso(user.banned_until),
    deleted_at: iso(user.deleted_at),
    is_anonymous: user.is_anonymous,
  };
  for (const key of Object.keys(json)) if (json[key] === undefined) delete json[key];
  return json;
}

export async function fullUserJson(db: Queryable, user: UserRow): Promise<Json> {
  const [identities, factors] = await Promise.all([loadIdentities(db, user.id), loadFactors(db, user.id)]);
  return userJson(user, identities, factors);
}

/** Merges metadata as GoTrue does: keys set to null are removed. */
export function mergeMetadata(current: Json | null, updates: Json): Json {
  const merged: Json = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(updates)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

export async function audit(
  db: Queryable,
  user: Pick<UserRow, 'id' | 'email'> | null,
  action: string,
  ip: string,
  traits: Json = {},
  logType = 'user',
): Promise<void> {
  await db.query(
    `insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), $1, now(), $2)`,
    [
      {
        actor_id: user?.id ?? '00000000-0000-0000-0000-000000000000',
        actor_username: user?.email ?? '',
        actor_via_sso: false,
        action,
        log_type: logType,
        traits,
      },
      ip.slice(0, 64),
    ],
  );
}

/**
 * The end of an email change (GoTrue's emailChangeVerify and User.ConfirmEmailChange): the new
 * address becomes the user's, confirmed; an email identity is made if there was none (an anonymous
 * user linking an email) and updated otherwise; an anonymous user becomes a permanent one; and
 * app_metadata's providers are read again from the identities (User.UpdateAppMetaDataProviders).
 */
export async function confirmEmailChange(db: Queryable, userId: string, newEmail: string): Promise<UserRow> {
  const { rowCount } = await db.query(
    `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true),
        updated_at = now()
      where user_id = $1 and provider = 'email'`,
    [userId, newEmail],
  );
  if (rowCount === 0) {
    await db.query(
      `insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
       values (gen_random_uuid(), $1::text, $1::uuid, $2, 'email', now(), now(), now())`,
      [userId, { sub: userId, email: newEmail, email_verified: true, phone_verified: false }],
    );
  }
  const { rows } = await db.query<UserRow>(
    `update auth.users set email = lower($2), email_change = '', email_change_token_current = '',
        email_change_token_new = '', email_change_confirm_status = 0, is_anonymous = false,
        email_confirmed_at = coalesce(email_confirmed_at, now()),
        raw_app_meta_data = coalesce(raw_app_meta_data, '{}'::jsonb) || (
          select jsonb_build_object('provider', (array_agg(provider order by created_at))[1],
                                    'providers', jsonb_agg(distinct provider))
            from auth.identities where user_id = $1),
        updated_at = now()
      where id = $1 returning ${USER_COLUMNS}`,
    [userId, newEmail],
  );
  const user = rows[0];
  if (!user) throw new Error(`user ${userId} vanished during an email change`);
  return user;
}
