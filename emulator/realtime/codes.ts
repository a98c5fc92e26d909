// The error codes realtime puts in front of a channel reply's reason (supabase/realtime names them in
// lib/realtime_web/channels/realtime_channel.ex and auth/jwt_verification.ex), one union so a reply
// cannot carry a misspelt one. Phoenix's own replies ("unmatched topic") carry no code.
export type RealtimeErrorCode =
  | 'MalformedJWT'
  | 'JwtSignatureError'
  | 'JwtSignerError'
  | 'InvalidJWTToken'
  | 'TopicNameRequired'
  | 'Unauthorized';

/** A reply's reason as realtime writes it: `Code: message`. */
export function errorReason(code: RealtimeErrorCode, message: string): string {
  return `${code}: ${message}`;
}
