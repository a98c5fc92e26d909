// auth.one_time_tokens: the index GoTrue looks email links and codes up in (internal/models/one_time_token.go).
import type { Queryable, UserRow } from './users.ts';
import { findUserById } from './users.ts';

export type OneTimeTokenType =
  | 'confirmation_token'
  | 'reauthentication_token'
  | 'recovery_token'
  | 'email_change_token_new'
  | 'email_change_token_current';

export async function storeOneTimeToken(
  db: Queryable,
  userId: string,
  type: OneTimeTokenType,
  hash: string,
  relatesTo: string,
): Promise<void> {
  await db.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
     values (gen_random_uuid(), $1, $2, $3, $4, now(), now())
     on conflict (user_id, token_type) do update
       set token_hash = excluded.token_hash, relates_to = excluded.relates_to, updated_at = now()`,
    [userId, type, hash, relatesTo.toLowerCase()],
  );
}

export async function clearOneTimeTokens(
  db: Queryable,
  userId: string,
  type?: OneTimeTokenType,
): Promise<void> {
  if (type)
    await db.query('delete from auth.one_time_tokens where user_id = $1 and token_type = $2', [userId, type]);
  else await db.query('delete from auth.one_time_tokens where user_id = $1', [userId]);
}

export async function findUserByOneTimeToken(
  db: Queryable,
  hash: string,
  types: OneTimeTokenType[],
): Promise<{ user: UserRow; type: OneTimeTokenType } | null> {
  const { rows } = await db.query<{ user_id: string; token_type: OneTimeTokenType }>(
    'select user_id, token_type from auth.one_time_tokens where token_hash = $1 and token_type = any($2::auth.one_time_token_type[]) limit 1',
    [hash, types],
  );
  const row = rows[0];
  if (!row) return null;
  const user = await findUserById(db, row.user_id, true);
  return user ? { user, type: row.token_type } : null;
}
