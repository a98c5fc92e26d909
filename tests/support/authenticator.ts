// An authenticator app for tests: the TOTP code for a secret, as a phone would show it. Every code this
// hands out is of a later step than the last (the current step's, or the next one's, which the one step
// of skew accepts; when both are used it waits for the clock), so no test depends on the backend
// taking a code twice, which GoTrue does and a stricter server need not.
import type { SupabaseClient } from '@supabase/supabase-js';
import { base32Decode, hotp, timeStep } from '../../emulator/auth/totp.ts';

export class Authenticator {
  private readonly key: Buffer;
  private lastStep = -Infinity;

  constructor(readonly secret: string) {
    const key = base32Decode(secret);
    if (!key || key.length === 0) throw new Error(`not a base32 secret: ${secret}`);
    this.key = key;
  }

  /** A code the backend has not seen yet for this factor. */
  async nextCode(): Promise<string> {
    for (;;) {
      const now = timeStep(Date.now());
      // The previous step's code is accepted only until the clock reaches the next step: not late in one.
      const oldest = secondsIntoStep() > 25 ? now : now - 1;
      const step = Math.max(oldest, this.lastStep + 1);
      if (step <= now + 1) {
        this.lastStep = step;
        return hotp(this.key, step);
      }
      await new Promise((resolve) => setTimeout(resolve, (30 - secondsIntoStep()) * 1000 + 200));
    }
  }

  /** Six digits that are none of the codes the backend would accept right now. */
  wrongCode(): string {
    const now = timeStep(Date.now());
    const valid = new Set([now - 1, now, now + 1, now + 2].map((s) => hotp(this.key, s)));
    for (let n = 0; ; n++) {
      const code = String(n).padStart(6, '0');
      if (!valid.has(code)) return code;
    }
  }
}

function secondsIntoStep(): number {
  return (Date.now() / 1000) % 30;
}

/**
 * Enrols and verifies a TOTP factor on `client`, which is then at aal2. supabase-js hands realtime
 * a new token on sign-in and refresh but not after an MFA verify, so this passes it on as the app's
 * browser client would.
 */
export async function addFactor(client: SupabaseClient): Promise<{ factorId: string; app: Authenticator }> {
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
  if (error) throw error;
  const app = new Authenticator(data.totp.secret);
  const verified = await client.auth.mfa.challengeAndVerify({
    factorId: data.id,
    code: await app.nextCode(),
  });
  if (verified.error) throw verified.error;
  await client.realtime.setAuth(verified.data.access_token);
  return { factorId: data.id, app };
}
