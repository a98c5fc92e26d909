import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RelativeTime } from './time.tsx';

describe('RelativeTime', () => {
  const clock = { now: '2026-11-23T12:00:00.000Z', timeZone: 'Europe/Paris' };
  const render = (date: string) => renderToStaticMarkup(createElement(RelativeTime, { date, clock }));

  it('says how long ago, with the exact time for machines and, in the reader’s zone, on hover', () => {
    expect(render('2026-11-23T11:57:00.000Z')).toBe(
      '<time dateTime="2026-11-23T11:57:00.000Z" title="23 Nov 2026, 12:57">3 minutes ago</time>',
    );
    expect(render('2026-11-23T11:59:40.000Z')).toContain('>just now</time>');
    expect(render('2026-11-20T08:00:00.000Z')).toContain('title="20 Nov 2026, 09:00">3 days ago</time>');
  });

  it('reads the same wherever it is rendered: the clock is passed in, not read', () => {
    expect(render('2025-11-23T12:00:00.000Z')).toContain('>1 year ago</time>');
    expect(
      renderToStaticMarkup(
        createElement(RelativeTime, {
          date: '2026-11-23T11:00:00.000Z',
          clock: { ...clock, timeZone: 'UTC' },
        }),
      ),
    ).toBe('<time dateTime="2026-11-23T11:00:00.000Z" title="23 Nov 2026, 11:00">1 hour ago</time>');
  });
});
