/** The cookie that carries the reader's IANA time zone from the browser to the server. */
export const TIME_ZONE_COOKIE = 'crewboard_tz';
