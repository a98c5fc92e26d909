// PKCE (supabase/auth internal/api/pkce.go): the code challenge a flow starts with, and the flow
// state it is kept in until the code is exchanged.
import { badRequest } from './errors.ts';
import type { Queryable } from './users.ts';

export function validatePkceParams(challenge: string, method: string): 'pkce' | 'implicit' {
  if ((challenge === '') !== (method === '')) {
    throw badRequest('validation_failed', 'PKCE flow requires code_challenge_method and code_challenge');
  }
  if (challenge === '') return 'implicit';
  if (challenge.length < 43 || challenge.length > 128) {
    throw badRequest('validation_failed', 'code challenge has to be between 43 and 128 characters');
  }
  if (!/^[a-zA-Z._~0-9-]+$/.test(challenge)) {
    throw badRequest(
      'validation_failed',
      'code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes',
    );
  }
  if (!['s256', 'plain'].includes(method.toLowerCase())) {
    throw badRequest('validation_failed', 'code challenge method not supported');
  }
  return 'pkce';
}

export async function createFlowState(
  db: Queryable,
  userId: string,
  authenticationMethod: string,
  challenge: string,
  method: string,
): Promise<void> {
  await db.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
        created_at, updated_at, authentication_method)
     values (gen_random_uuid(), $1, gen_random_uuid()::text, $2, $3, 'email', now(), now(), $4)`,
    [userId, method.toLowerCase(), challenge, authenticationMethod],
  );
}
