// The reader's time zone, for dates the server writes ("Today", "due tomorrow"): the browser tells
// it once JavaScript runs (app/components/time.tsx keeps it in a cookie); until then, and without
// JavaScript, the server writes UTC.
import { calendarDate, isTimeZone } from './format.ts';
import { TIME_ZONE_COOKIE } from './time-zone.ts';

export function readTimeZone(request: Request): string {
  const cookies = request.headers.get('Cookie') ?? '';
  for (const part of cookies.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== TIME_ZONE_COOKIE) continue;
    let zone: string;
    try {
      zone = decodeURIComponent(value.join('='));
    } catch {
      return 'UTC';
    }
    // A zone name is short and made of letters, digits, `/`, `_`, `+` and `-`: nothing else reaches Intl.
    return /^[A-Za-z0-9/_+-]{1,64}$/.test(zone) && isTimeZone(zone) ? zone : 'UTC';
  }
  return 'UTC';
}

/** The reader's calendar date (`YYYY-MM-DD`) in their time zone: it decides when a task is overdue. */
export function readerToday(request: Request, now: Date): string {
  return calendarDate(now, readTimeZone(request));
}
