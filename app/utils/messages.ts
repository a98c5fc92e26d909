// What the person reads (SPEC section 8). Shared by server and browser; no backend code here.

export const MESSAGES = {
  invalid_credentials: 'Email or password is incorrect.',
  email_not_confirmed: 'Confirm your email first. We can send the link again.',
  link_invalid: 'This link has expired or was already used. Request a new one.',
  code_invalid: 'That code is not valid or has expired.',
  pkce_missing:
    'This link was opened in a different browser. Enter the 6-digit code from the same email instead.',
  weak_password: 'Use 8 to 72 characters, and not your email address.',
  mfa_required: 'Enter the code from your authenticator app to continue.',
  mfa_invalid: "That code is not valid. Check your device's clock and try again.",
  backend_unavailable: "We can't reach the server right now. Nothing was saved; try again in a moment.",
  file_type: "That file type isn't allowed here.",
  file_missing: 'Choose a file first.',
  forbidden: "You don't have access to this.",
  not_found: "We couldn't find that page.",
} as const;

export function fileTooLargeMessage(megabytes: number): string {
  return `Files can be at most ${megabytes} MB.`;
}

export function rateLimitedMessage(seconds: number): string {
  return `Too many attempts. Try again in ${seconds} seconds.`;
}
