import { describe, expect, it } from 'vitest';
import { RECOVERY_WINDOW_SECONDS, recoveryState } from './password-reset.server.ts';

const now = 1_800_000_000;

describe('recoveryState', () => {
  it('refuses a session that did not begin with an email link', () => {
    expect(recoveryState([{ method: 'password', timestamp: now - 5 }], now)).toBe('refused');
    expect(recoveryState([{ method: 'totp', timestamp: now - 5 }], now)).toBe('refused');
    expect(recoveryState([], now)).toBe('refused');
  });

  it('allows a link verified by token hash (otp) or by PKCE code (recovery) within the window', () => {
    expect(recoveryState([{ method: 'otp', timestamp: now - 60 }], now)).toBe('allowed');
    expect(recoveryState([{ method: 'recovery', timestamp: now - RECOVERY_WINDOW_SECONDS }], now)).toBe(
      'allowed',
    );
  });

  it('keeps the link’s time after the second step, and lets it run out', () => {
    const afterMfa = [
      { method: 'totp', timestamp: now - 30 },
      { method: 'otp', timestamp: now - 120 },
    ];
    expect(recoveryState(afterMfa, now)).toBe('allowed');
    expect(recoveryState(afterMfa, now + RECOVERY_WINDOW_SECONDS)).toBe('expired');
  });
});
