// The server code /login uses, behind one module.
//
// The browser build replaces every `*.server` module a route imports with an empty one, and a stub
// shared by several routes becomes a file of its own: /login loaded six of them, 100 bytes each
// compressed, against its 100 kB JavaScript budget. A module only /login imports is folded into the
// page's own file instead. `json` comes through here too: @remix-run/node is server-only, and its
// stand-in is shared by every route.
export { json } from '@remix-run/node';
export { friendlyAuthError, friendlyStatus } from './auth-errors.server.ts';
export { redirectWithSession, requireAnonymous } from './session/user.server.ts';
export { withDeviceCookie } from './device-cookie.server.ts';
export { limitSignInAttempt } from './rate-limit.server.ts';
export { readPublicForm } from './request.server.ts';
export { getSupabase } from './session/supabase.server.ts';
