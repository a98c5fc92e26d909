import { describe, expect, it } from 'vitest';
import { readTimeZone } from './time-zone.server.ts';

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
