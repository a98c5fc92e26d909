import { describe, expect, it } from 'vitest';
import { readerToday, readTimeZone } from './time-zone.server.ts';

const withCookie = (cookie: string) => new Request('http://localhost/', { headers: { Cookie: cookie } });

describe('readTimeZone', () => {
  it('reads the zone the browser sent', () => {
    expect(readTimeZone(withCookie('a=1; crewboard_tz=Europe%2FBerlin; b=2'))).toBe('Europe/Berlin');
    expect(readTimeZone(withCookie('crewboard_tz=America/Los_Angeles'))).toBe('America/Los_Angeles');
  });
  it('falls back to UTC without one, or with one that is not a zone', () => {
    expect(readTimeZone(new Request('http://localhost/'))).toBe('UTC');
    expect(readTimeZone(withCookie('crewboard_tz=Mars%2FOlympus'))).toBe('UTC');
    expect(readTimeZone(withCookie('crewboard_tz=%E0%A4%A'))).toBe('UTC');
    expect(readTimeZone(withCookie(`crewboard_tz=${'A'.repeat(200)}`))).toBe('UTC');
  });
});

describe('readerToday', () => {
  it("says today's date in the time zone the browser reported, else UTC", () => {
    const now = new Date('2026-11-23T23:30:00Z');
    expect(readerToday(new Request('http://localhost/'), now)).toBe('2026-11-23');
    expect(readerToday(withCookie('a=1; crewboard_tz=Asia%2FTokyo; b=2'), now)).toBe('2026-11-24');
    expect(readerToday(withCookie('crewboard_tz=America/Los_Angeles'), now)).toBe('2026-11-23');
    expect(readerToday(withCookie('crewboard_tz=Not%2FA_Zone'), now)).toBe('2026-11-23');
  });
});
