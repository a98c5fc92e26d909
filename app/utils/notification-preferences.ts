// The kinds of notification and how often email may come, as public.notification_preferences
// knows them (supabase/migrations/20261130100000_notifications.sql). No zod here: the settings page
// shows these, and its form's schema (notification-preferences.server.ts) stays on the server.
export const NOTIFICATION_KINDS = [
  'assigned',
  'mentioned',
  'commented',
  'status_changed',
  'added_to_workspace',
] as const;

export const EMAIL_FREQUENCIES = ['instant', 'hourly', 'daily', 'never'] as const;
