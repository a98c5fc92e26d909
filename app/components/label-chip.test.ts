import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LabelChips } from './label-chip.tsx';

const labels = ['bug', 'design', 'customer', 'backend', 'urgent'].map((name, i) => ({
  id: String(i),
  name,
  color: i === 4 ? 'not-a-colour' : 'red',
}));

describe('LabelChips', () => {
  it('shows three chips and how many more, naming them for screen readers', () => {
    const html = renderToStaticMarkup(createElement(LabelChips, { labels }));
    expect(html.match(/<li/g)).toHaveLength(4);
    expect(html).toContain('>bug<');
    expect(html).not.toContain('>backend<');
    expect(html).toContain('+2');
    expect(html).toContain('2 more: backend, urgent');
  });

  it('shows them all when told, an unknown colour as gray', () => {
    const html = renderToStaticMarkup(createElement(LabelChips, { labels, max: Infinity }));
    expect(html).not.toContain('more');
    expect(html).toContain('bg-gray-100 text-gray-800">urgent<');
  });

  it('shows nothing for no labels', () => {
    expect(renderToStaticMarkup(createElement(LabelChips, { labels: [] }))).toBe('');
  });
});
