/** The honeypot field's name, shared by the form component and the server check. */
export const HONEYPOT_FIELD = 'website';
