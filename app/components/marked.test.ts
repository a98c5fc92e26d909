import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { markedPieces } from '../utils/search-query.ts';
import { Marked } from './marked.tsx';

describe('Marked', () => {
  it('renders the matches as <mark> and everything from the data as escaped text', () => {
    const snippet = '<script>alert(1)</script> see \u0001<img src=x onerror=alert(2)>boot\u0002 & "more"';
    const html = renderToStaticMarkup(createElement(Marked, { pieces: markedPieces(snippet) }));
    expect(html).toBe(
      '&lt;script&gt;alert(1)&lt;/script&gt; see <mark class="rounded-sm bg-yellow-100 text-inherit">' +
        '&lt;img src=x onerror=alert(2)&gt;boot</mark> &amp; &quot;more&quot;',
    );
  });
});
