/**
 * Times said relative to now ("3 hours ago"), without hydration mismatches: the server renders them
 * against the loader's clock (`now` and the reader's time zone), the browser's first render uses the
 * same clock, and only after hydration does the clock move on (every minute) and switch to the
 * browser's own time zone — which it also keeps in a cookie, so the next server render uses it.
 */
import { useRevalidator } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { absoluteTime, calendarDate, isTimeZone, relativeTime } from '../utils/format.ts';
import { TIME_ZONE_COOKIE } from '../utils/time-zone.ts';

export interface Clock {
  /** An ISO timestamp. */
  now: string;
  /** An IANA time zone name. */
  timeZone: string;
}

export function useClock(initial: Clock): Clock {
  const [clock, setClock] = useState(initial);
  useEffect(() => {
    const timeZone = rememberTimeZone(initial.timeZone);
    const tick = () => setClock({ now: new Date().toISOString(), timeZone });
    tick();
    const timer = window.setInterval(tick, 60_000);
    return () => window.clearInterval(timer);
  }, [initial.now, initial.timeZone]);
  return clock;
}

/**
 * The browser's time zone, kept in a cookie when the server wrote the page in another one, so the
 * next server render uses it. Falls back to `serverZone` when the browser names none it knows.
 */
export function rememberTimeZone(serverZone: string): string {
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const timeZone = browserZone && isTimeZone(browserZone) ? browserZone : serverZone;
  if (timeZone !== serverZone) {
    document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(timeZone)}; Path=/; Max-Age=31536000; SameSite=Lax`;
  }
  return timeZone;
}

/**
 * For a page whose loader said which day it is in the reader's time zone (`today`: "due today", the
 * overdue filter): the browser's time zone is remembered (`rememberTimeZone`), and the page loads
 * its data again once that day is over — a board left open overnight, or a laptop woken the next
 * morning. Checked every minute and when the tab is shown again; once for each new day.
 */
export function useReaderDay(today: string, serverZone: string): void {
  const { revalidate } = useRevalidator();
  const asked = useRef(today);
  useEffect(() => {
    const timeZone = rememberTimeZone(serverZone);
    const check = () => {
      const day = calendarDate(new Date(), timeZone);
      if (day === today || day === asked.current) return;
      asked.current = day;
      revalidate();
    };
    const timer = window.setInterval(check, 60_000);
    document.addEventListener('visibilitychange', check);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', check);
    };
  }, [today, serverZone, revalidate]);
}

/** "3 hours ago", with the exact time for machines (`datetime`) and on hover (`title`). */
export function RelativeTime({ date, clock, className }: { date: string; clock: Clock; className?: string }) {
  return (
    <time dateTime={date} title={absoluteTime(date, clock.timeZone)} className={className}>
      {relativeTime(date, clock.now)}
    </time>
  );
}
