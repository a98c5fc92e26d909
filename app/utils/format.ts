// Formatting shared by server and browser. Everything here is a pure function of its arguments
// (the clock and the time zone are passed in), so a server render and the browser's hydration of
// it produce the same text. Dates are assembled from numeric parts with fixed English names rather
// than `toLocaleString`, whose wording differs between ICU versions (Node's and the browser's).

/** 1234567 → "1.2 MB"; bytes in powers of 1,000 as file browsers show them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value >= 10 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

type Instant = Date | string | number;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAY_MS = 86_400_000;

function toMs(value: Instant): number {
  return value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/**
 * How long ago (or how far ahead) `date` is from `now`: "just now", "5 minutes ago", "3 hours ago",
 * "2 days ago", "4 months ago", "in 3 hours". Units round the way people speak (90 minutes is
 * "2 hours ago"), with the thresholds Moment.js made familiar.
 */
export function relativeTime(date: Instant, now: Instant): string {
  const seconds = Math.round((toMs(now) - toMs(date)) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  const minutes = Math.round(abs / 60);
  const hours = Math.round(abs / 3600);
  const days = Math.round(abs / 86_400);
  const text =
    minutes < 45
      ? plural(minutes, 'minute')
      : hours < 22
        ? plural(hours, 'hour')
        : days < 26
          ? plural(days, 'day')
          : days < 320
            ? plural(Math.max(1, Math.round(days / 30.4)), 'month')
            : plural(Math.max(1, Math.round(days / 365.25)), 'year');
  return seconds >= 0 ? `${text} ago` : `in ${text}`;
}

/** A calendar date, `YYYY-MM-DD`, as a day count since 1970-01-01 (null if it is not a real date). */
function dayNumber(isoDate: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day)
    return null;
  return ms / DAY_MS;
}

/** "3 Dec", or "3 Dec 2027" when the year is not `thisYear`. */
export function shortDate(isoDate: string, thisYear?: number): string {
  const [year = 0, month = 1, day = 1] = isoDate.split('-').map(Number);
  return `${day} ${MONTHS[month - 1]}${year === thisYear ? '' : ` ${year}`}`;
}

export type DueLabel = {
  /** "due today", "due tomorrow", "in 3 days", "due 3 Dec", "1 day overdue", "2 days overdue" */
  text: string;
  overdue: boolean;
  /** Whole days from `today` to the due date; negative once it has passed. */
  days: number;
};

/**
 * A task's due date (`YYYY-MM-DD`) said relative to `today` (`YYYY-MM-DD`, in the reader's time
 * zone: see `calendarDate`). A task is overdue from the day after its due date.
 */
export function dueLabel(dueDate: string, today: string, open = true): DueLabel {
  const due = dayNumber(dueDate);
  const now = dayNumber(today);
  if (due === null || now === null) return { text: `due ${dueDate}`, overdue: false, days: 0 };
  const days = due - now;
  // A task that is no longer open (completed or canceled) is never overdue: its date is history.
  if (days < 0 && !open)
    return { text: `due ${shortDate(dueDate, Number(today.slice(0, 4)))}`, overdue: false, days };
  if (days < 0) return { text: `${plural(-days, 'day')} overdue`, overdue: true, days };
  if (days === 0) return { text: 'due today', overdue: false, days };
  if (days === 1) return { text: 'due tomorrow', overdue: false, days };
  if (days < 14) return { text: `in ${days} days`, overdue: false, days };
  return { text: `due ${shortDate(dueDate, Number(today.slice(0, 4)))}`, overdue: false, days };
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

/** Names already checked: building a formatter to ask costs about 0.4 ms a call. */
const knownZones = new Map<string, boolean>();

/** Whether `timeZone` is an IANA name this runtime knows ("Europe/Berlin", "UTC"). */
export function isTimeZone(timeZone: string): boolean {
  let known = knownZones.get(timeZone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone });
      known = true;
    } catch {
      known = false;
    }
    // Bounded: the names come from visitors' cookies.
    if (knownZones.size >= 1000) knownZones.clear();
    knownZones.set(timeZone, known);
  }
  return known;
}

type WallClock = { year: number; month: number; day: number; hour: number; minute: number };

/** The wall-clock reading of an instant in a time zone (unknown zones read as UTC). */
function wallClock(date: Instant, timeZone: string): WallClock {
  const zone = isTimeZone(timeZone) ? timeZone : 'UTC';
  let format = partsFormatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    });
    partsFormatters.set(zone, format);
  }
  const parts = format.formatToParts(new Date(toMs(date)));
  const read = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: read('year'),
    month: read('month'),
    day: read('day'),
    hour: read('hour') % 24,
    minute: read('minute'),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar date (`YYYY-MM-DD`) of an instant in a time zone: "today" for `dueLabel`. */
export function calendarDate(date: Instant, timeZone: string): string {
  const c = wallClock(date, timeZone);
  return `${c.year}-${pad(c.month)}-${pad(c.day)}`;
}

/** "23 Nov 2026, 14:05": a full time for a `title`, in the reader's time zone. */
export function absoluteTime(date: Instant, timeZone: string): string {
  const c = wallClock(date, timeZone);
  return `${c.day} ${MONTHS[c.month - 1]} ${c.year}, ${pad(c.hour)}:${pad(c.minute)}`;
}

/**
 * The heading of the day an instant falls on, seen from `now` in a time zone: "Today",
 * "Yesterday", "Monday, 16 Nov" (this year), "Monday, 16 Nov 2025" (an earlier one).
 */
export function dayHeading(date: Instant, now: Instant, timeZone: string): string {
  const day = calendarDate(date, timeZone);
  const today = calendarDate(now, timeZone);
  const diff = (dayNumber(today) ?? 0) - (dayNumber(day) ?? 0);
  if (diff === 0) return 'Today';
  if (diff === 1) return 'Yesterday';
  const weekday = WEEKDAYS[new Date((dayNumber(day) ?? 0) * DAY_MS).getUTCDay()];
  return `${weekday}, ${shortDate(day, Number(today.slice(0, 4)))}`;
}
