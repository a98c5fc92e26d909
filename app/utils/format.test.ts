import { describe, expect, it } from 'vitest';
import {
  absoluteTime,
  calendarDate,
  dayHeading,
  dueLabel,
  formatBytes,
  isTimeZone,
  relativeTime,
} from './format.ts';

describe('formatBytes', () => {
  it('counts in powers of 1,000', () => {
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1234567)).toBe('1.2 MB');
    expect(formatBytes(45_000)).toBe('45 kB');
  });
});

describe('relativeTime', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
  it('says "just now" for the last few seconds, and for a clock slightly ahead', () => {
    expect(relativeTime(ago(0), now)).toBe('just now');
    expect(relativeTime(ago(44), now)).toBe('just now');
    expect(relativeTime(ago(-10), now)).toBe('just now');
  });
  it('rounds to the unit people would say', () => {
    expect(relativeTime(ago(60), now)).toBe('1 minute ago');
    expect(relativeTime(ago(5 * 60), now)).toBe('5 minutes ago');
    expect(relativeTime(ago(50 * 60), now)).toBe('1 hour ago');
    expect(relativeTime(ago(90 * 60), now)).toBe('2 hours ago');
    expect(relativeTime(ago(3 * 3600), now)).toBe('3 hours ago');
    expect(relativeTime(ago(23 * 3600), now)).toBe('1 day ago');
    expect(relativeTime(ago(3 * 86_400), now)).toBe('3 days ago');
    expect(relativeTime(ago(40 * 86_400), now)).toBe('1 month ago');
    expect(relativeTime(ago(200 * 86_400), now)).toBe('7 months ago');
    expect(relativeTime(ago(400 * 86_400), now)).toBe('1 year ago');
    expect(relativeTime(ago(3 * 365 * 86_400), now)).toBe('3 years ago');
  });
  it('says "in …" for the future', () => {
    expect(relativeTime(ago(-3 * 3600), now)).toBe('in 3 hours');
    expect(relativeTime(ago(-2 * 86_400), now)).toBe('in 2 days');
  });
  it('takes dates, ISO strings and milliseconds', () => {
    expect(relativeTime('2026-11-23T09:00:00Z', now.getTime())).toBe('3 hours ago');
    expect(relativeTime('2026-11-23T09:00:00+00:00', '2026-11-23T12:00:00.000Z')).toBe('3 hours ago');
  });
});

describe('dueLabel', () => {
  const today = '2026-11-23';
  it('says today and tomorrow in words', () => {
    expect(dueLabel('2026-11-23', today)).toEqual({ text: 'due today', overdue: false, days: 0 });
    expect(dueLabel('2026-11-24', today)).toEqual({ text: 'due tomorrow', overdue: false, days: 1 });
  });
  it('counts days for the next two weeks, then names the date', () => {
    expect(dueLabel('2026-11-26', today)).toEqual({ text: 'in 3 days', overdue: false, days: 3 });
    expect(dueLabel('2026-12-06', today).text).toBe('in 13 days');
    expect(dueLabel('2026-12-07', today).text).toBe('due 7 Dec');
    expect(dueLabel('2027-01-15', today).text).toBe('due 15 Jan 2027');
  });
  it('is overdue from the day after the due date, across months and years', () => {
    expect(dueLabel('2026-11-22', today)).toEqual({ text: '1 day overdue', overdue: true, days: -1 });
    expect(dueLabel('2026-11-21', today)).toEqual({ text: '2 days overdue', overdue: true, days: -2 });
    expect(dueLabel('2025-12-31', '2026-01-01')).toEqual({ text: '1 day overdue', overdue: true, days: -1 });
    expect(dueLabel('2026-02-28', '2026-03-01').days).toBe(-1);
  });
  it('is never overdue for a task that is no longer open (completed or canceled): the date is history', () => {
    expect(dueLabel('2026-11-03', today, false)).toEqual({ text: 'due 3 Nov', overdue: false, days: -20 });
    expect(dueLabel('2025-11-03', today, false).text).toBe('due 3 Nov 2025');
    expect(dueLabel('2026-11-26', today, false).text).toBe('in 3 days');
  });
  it('does not guess at a date it cannot read', () => {
    expect(dueLabel('2026-02-30', today)).toEqual({ text: 'due 2026-02-30', overdue: false, days: 0 });
  });
});

describe('time zones', () => {
  const instant = '2026-11-23T23:30:00Z';
  it('reads the calendar date and clock in the given zone', () => {
    expect(calendarDate(instant, 'UTC')).toBe('2026-11-23');
    expect(calendarDate(instant, 'Europe/Berlin')).toBe('2026-11-24');
    expect(calendarDate(instant, 'America/Los_Angeles')).toBe('2026-11-23');
    expect(absoluteTime(instant, 'UTC')).toBe('23 Nov 2026, 23:30');
    expect(absoluteTime(instant, 'Europe/Berlin')).toBe('24 Nov 2026, 00:30');
    expect(absoluteTime('2026-11-24T00:05:00Z', 'UTC')).toBe('24 Nov 2026, 00:05');
  });
  it('falls back to UTC for an unknown zone', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(calendarDate(instant, 'Mars/Olympus')).toBe('2026-11-23');
  });
});

describe('dayHeading', () => {
  const now = '2026-11-23T12:00:00Z';
  it('names today and yesterday, then the weekday and date', () => {
    expect(dayHeading('2026-11-23T00:10:00Z', now, 'UTC')).toBe('Today');
    expect(dayHeading('2026-11-22T23:50:00Z', now, 'UTC')).toBe('Yesterday');
    expect(dayHeading('2026-11-16T08:00:00Z', now, 'UTC')).toBe('Monday, 16 Nov');
    expect(dayHeading('2025-11-16T08:00:00Z', now, 'UTC')).toBe('Sunday, 16 Nov 2025');
  });
  it('draws the line between days at midnight in the reader’s zone', () => {
    expect(dayHeading('2026-11-22T23:50:00Z', now, 'Europe/Berlin')).toBe('Today');
    expect(dayHeading('2026-11-23T06:00:00Z', now, 'America/Los_Angeles')).toBe('Yesterday');
  });
});
