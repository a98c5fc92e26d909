// Password rules (supabase/auth internal/api/password.go): bcrypt's 72-byte limit and the
// configured minimum length.
import type { AuthSettings } from '../config.ts';
import { badRequest, weakPassword } from './errors.ts';

export function checkPasswordStrength(settings: AuthSettings, password: string): void {
  if ([...password].length > 72) {
    throw badRequest('validation_failed', 'Password cannot be longer than 72 characters');
  }
  if ([...password].length < settings.minimumPasswordLength) {
    throw weakPassword(`Password should be at least ${settings.minimumPasswordLength} characters.`, [
      'length',
    ]);
  }
}
