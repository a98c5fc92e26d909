// POST /signup without an email or a phone: an anonymous user and a session (supabase/auth
// internal/api/anonymous.go, and the branch of the /signup route in api.go that leads there).
import {
  type AuthRequest,
  type AuthService,
  type Reply,
  grantContext,
  json,
  transaction,
} from './context.ts';
import { objectParam } from './params.ts';
import { unprocessable } from './errors.ts';
import { issueSession } from './sessions.ts';
import { audit, createUser } from './users.ts';

export async function signupAnonymously(service: AuthService, req: AuthRequest): Promise<Reply> {
  if (!service.settings.enableSignup) {
    throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
  }
  const data = objectParam(req.body, 'data') ?? {};
  const session = await transaction(service, async (db) => {
    // No email, no password, no identity and empty app_metadata (SignupParams.ToUserModel for the
    // anonymous provider); the session's AMR method is "anonymous".
    const user = await createUser(db, { email: null, passwordHash: '', userMetadata: data, anonymous: true });
    await audit(db, user, 'user_signedup', req.ip, { provider: 'anonymous' });
    return issueSession(db, service.tokens, user, 'anonymous', grantContext(req));
  });
  return json(session);
}
