// POST /token: the password, refresh_token and pkce grants (supabase/auth internal/api/token.go,
// token_refresh.go, pkce.go).
import {
  type AuthRequest,
  type AuthService,
  type Reply,
  grantContext,
  json,
  transaction,
} from './context.ts';
import { enforceRateLimit } from './middleware.ts';
import { stringParam } from './params.ts';
import { pkceMatches } from './crypto.ts';
import { badRequest, invalidCredentials, notFound, unprocessable } from './errors.ts';
import { issueSession, refreshGrant } from './sessions.ts';
import { audit, findUserByEmail, findUserById, isBanned, passwordMatches } from './users.ts';

// Every grant shares one limiter, RATE_LIMIT_TOKEN_REFRESH (supabase/auth internal/api/token.go):
// password sign-ins and refreshes draw from the same bucket.
export async function token(service: AuthService, req: AuthRequest): Promise<Reply> {
  const grantType = req.query.get('grant_type') ?? '';
  if (!['password', 'refresh_token', 'pkce'].includes(grantType)) {
    throw badRequest('invalid_credentials', 'unsupported_grant_type');
  }
  enforceRateLimit(service, req, 'token');
  switch (grantType) {
    case 'password':
      return json(await passwordGrant(service, req));
    case 'refresh_token':
      return json(
        await refreshGrant(
          service.pool,
          service.tokens,
          stringParam(req.body, 'refresh_token'),
          grantContext(req),
        ),
      );
    case 'pkce':
      return json(await pkceGrant(service, req));
    default:
      throw badRequest('invalid_credentials', 'unsupported_grant_type');
  }
}

async function passwordGrant(service: AuthService, req: AuthRequest): Promise<Record<string, unknown>> {
  const email = stringParam(req.body, 'email');
  const phone = stringParam(req.body, 'phone');
  const password = stringParam(req.body, 'password');
  if (email !== '' && phone !== '') {
    throw badRequest(
      'validation_failed',
      'Only an email address or phone number should be provided on login.',
    );
  }
  if (phone !== '') throw unprocessable('phone_provider_disabled', 'Phone logins are disabled');
  if (email === '') throw badRequest('validation_failed', 'missing email or phone');
  return transaction(service, async (db) => {
    const user = await findUserByEmail(db, email);
    if (!user) throw invalidCredentials();
    if (isBanned(user)) throw badRequest('user_banned', 'User is banned');
    if (!(await passwordMatches(db, user.id, password))) {
      await audit(db, user, 'login_failed', req.ip, { reason: 'invalid password' }, 'account');
      throw invalidCredentials();
    }
    if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');
    return issueSession(db, service.tokens, user, 'password', grantContext(req));
  });
}

interface FlowStateRow {
  id: string;
  user_id: string | null;
  code_challenge: string;
  code_challenge_method: string;
  authentication_method: string;
  created_at: Date;
  auth_code_issued_at: Date | null;
}

const FLOW_STATE_TTL_MS = 5 * 60 * 1000;

async function pkceGrant(service: AuthService, req: AuthRequest): Promise<Record<string, unknown>> {
  const authCode = stringParam(req.body, 'auth_code');
  const verifier = stringParam(req.body, 'code_verifier');
  if (authCode === '' || verifier === '') {
    throw badRequest(
      'validation_failed',
      'invalid request: both auth code and code verifier should be non-empty',
    );
  }
  return transaction(service, async (db) => {
    const { rows } = await db.query<FlowStateRow>(
      `select id, user_id, code_challenge, code_challenge_method, authentication_method, created_at, auth_code_issued_at
         from auth.flow_state where auth_code = $1 for update`,
      [authCode],
    );
    const state = rows[0];
    if (!state || !state.user_id) {
      throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
    }
    const startedAt =
      state.authentication_method === 'magiclink' && state.auth_code_issued_at
        ? state.auth_code_issued_at
        : state.created_at;
    if (Date.now() > startedAt.getTime() + FLOW_STATE_TTL_MS) {
      throw unprocessable('flow_state_expired', 'invalid flow state, flow state has expired');
    }
    if (!pkceMatches(state.code_challenge, state.code_challenge_method, verifier)) {
      throw badRequest('bad_code_verifier', 'code challenge does not match previously saved code verifier');
    }
    const user = await findUserById(db, state.user_id);
    if (!user) throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
    await db.query('delete from auth.flow_state where id = $1', [state.id]);
    return issueSession(db, service.tokens, user, state.authentication_method, grantContext(req));
  });
}
