import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backendAnswered, backendFailed, failureReason } from './outage.server.ts';

let warnings: string[] = [];
const warn = console.warn;

beforeEach(() => {
  warnings = [];
  console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
  // Whatever an earlier test left open is closed first.
  backendAnswered();
  warnings = [];
});

afterEach(() => {
  console.warn = warn;
});

describe('outage log', () => {
  it('says once that the backend is down, and once that it is back, however many calls fail', () => {
    backendFailed('the data API answered 503 (PGRST001: Database client error)', 1_000);
    for (let i = 0; i < 20; i++) backendFailed('the data API gave no answer (ECONNREFUSED)', 1_100 + i);
    expect(warnings).toEqual([
      'Backend unavailable: the data API answered 503 (PGRST001: Database client error). Pages that need it answer 503 until it is back.',
    ]);
    backendAnswered(3_500);
    backendAnswered(3_600);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toBe('Backend available again after 2.5 s; 21 calls to it failed meanwhile.');
  });

  it('logs nothing while the backend answers, and a new outage afresh', () => {
    backendAnswered();
    expect(warnings).toEqual([]);
    backendFailed('the backend answered 500', 0);
    backendAnswered(100);
    backendFailed('the data API gave no answer (ECONNRESET)', 200);
    expect(warnings).toHaveLength(3);
    expect(warnings[1]).toBe('Backend available again after 0.1 s; 1 call to it failed meanwhile.');
    expect(warnings[2]).toMatch(/^Backend unavailable: the data API gave no answer \(ECONNRESET\)\./);
  });
});

describe('failureReason', () => {
  it("names PostgREST's code and message, or the status alone", () => {
    const body = JSON.stringify({
      code: 'PGRST001',
      message: 'Database client error. Retrying the connection.',
    });
    expect(failureReason('the data API', 503, body)).toBe(
      'the data API answered 503 (PGRST001: Database client error. Retrying the connection.)',
    );
    expect(failureReason('the data API', 502, '<html>Bad gateway</html>')).toBe('the data API answered 502');
    expect(failureReason('the backend', 500, null)).toBe('the backend answered 500');
  });

  it("names the socket's error when there was no answer", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:54321'), {
      code: 'ECONNREFUSED',
    });
    expect(failureReason('the data API', null, refused)).toBe('the data API gave no answer (ECONNREFUSED)');
    expect(failureReason('the backend', null, new TypeError('fetch failed', { cause: refused }))).toBe(
      'the backend gave no answer (ECONNREFUSED)',
    );
    expect(failureReason('the backend', null, new Error('socket hang up'))).toBe(
      'the backend gave no answer (socket hang up)',
    );
  });
});
