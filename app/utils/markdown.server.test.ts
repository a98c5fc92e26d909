import { describe, expect, it } from 'vitest';
import { renderMarkdown, safeLink, taskKeysIn, type MarkdownContext } from './markdown.server.ts';

const FILE = '/w/acme/files/0b0b0b0b-0000-4000-8000-000000000000';
const context: MarkdownContext = {
  workspaceSlug: 'acme',
  tasks: new Map([['WEB-2', { path: '/w/acme/p/web/t/2', title: 'Fix <b>login</b>' }]]),
  members: [
    { id: 'u-ana', name: 'Ana Silva' },
    { id: 'u-bo', name: 'Bo' },
  ],
};
const render = (source: string, more: Partial<MarkdownContext> = {}) =>
  renderMarkdown(source, { ...context, ...more });

/** The HTML as a browser would build it, reduced to what could run script or leave the site. */
function dangers(html: string): string[] {
  const found: string[] = [];
  // Tags other than those markdown makes.
  const allowed = new Set(
    'p h1 h2 h3 h4 h5 h6 em strong s a ul ol li code pre blockquote table thead tbody tr th td hr br img span button input'.split(
      ' ',
    ),
  );
  for (const m of html.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)) {
    const [, tag, attrs] = m;
    if (!allowed.has(tag!.toLowerCase())) found.push(`tag ${tag}`);
    for (const a of attrs!.matchAll(/\s([^\s=]+)(?:="([^"]*)")?/g)) {
      const name = a[1]!.toLowerCase();
      if (name.startsWith('on')) found.push(`attribute ${name}`);
      if (name === 'href' || name === 'src') {
        const url = a[2]!.replace(/&amp;/g, '&');
        if (!/^(https?:\/\/|mailto:|\/(?![/\\]))/i.test(url)) found.push(`${name} ${url}`);
        if (name === 'src' && url !== FILE) found.push(`image ${url}`);
      }
    }
  }
  return found;
}

describe('renderMarkdown: XSS payloads stay text', () => {
  const payloads = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">x</a>',
    '<svg onload=alert(1)>',
    '<iframe src="javascript:alert(1)"></iframe>',
    '<details open ontoggle=alert(1)>',
    '[x](javascript:alert(1))',
    '[x](JaVaScRiPt:alert(1))',
    '[x]( javascript:alert(1))',
    '[x](<javascript:alert(1)>)',
    '[x](java\nscript:alert(1))',
    '[x](javascript&colon;alert(1))',
    '[x](&#106;avascript:alert(1))',
    '[x](jav&#x61;script:alert(1))',
    '[x](&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1))',
    '[x](javascript%3Aalert(1))',
    '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '[x](vbscript:msgbox(1))',
    '[x](file:///etc/passwd)',
    '[x](//evil.example/)',
    '[x](/\\evil.example/)',
    '[x](\\\\evil.example)',
    '![x](javascript:alert(1))',
    '![x](data:image/png;base64,iVBORw0KGgo=)',
    '![x](https://evil.example/track.png)',
    '![x" onerror="alert(1)](/w/acme/files/0b0b0b0b-0000-4000-8000-000000000000)',
    '[x][r]\n\n[r]: javascript:alert(1)',
    '[x][r]\n\n[r]: data:text/html,<script>alert(1)</script>',
    '<javascript:alert(1)>',
    '<vbscript:alert(1)>',
    '<data:text/html,alert(1)>',
    'javascript:alert(1)',
    'www.example.com/"onmouseover="alert(1)',
    '[x](https://example.com/" onclick="alert(1))',
    '[x](https://example.com "a\\" onclick=\\"alert(1)")',
    '`<script>alert(1)</script>`',
    '```html\n<script>alert(1)</script>\n```',
    '&lt;script&gt;alert(1)&lt;/script&gt;',
    '&#60;script&#62;alert(1)&#60;/script&#62;',
    '- [ ] <img src=x onerror=alert(1)>',
    '- [ ] " onmouseover="alert(1)',
    '@"><script>alert(1)</script>',
    'WEB-2"><script>',
    '| a |\n|---|\n| <script>alert(1)</script> |',
    '> <style>body{display:none}</style>',
  ];

  it.each(payloads)('%s', (payload) => {
    for (const tickable of [false, true]) {
      const html = render(payload, { tickable });
      expect(dangers(html)).toEqual([]);
      expect(html).not.toMatch(/<(script|svg|iframe|style|details)\b/i);
    }
  });

  it('keeps the words of a refused link as text', () => {
    expect(render('[click](javascript:alert(1))')).toBe('<p>[click](javascript:alert(1))</p>\n');
    expect(render('<b>bold</b>')).toBe('<p>&lt;b&gt;bold&lt;/b&gt;</p>\n');
  });

  it('says which addresses are safe', () => {
    for (const ok of ['https://a.example', 'http://a.example/x?y#z', 'mailto:a@b.example', '/w/acme'])
      expect(safeLink(ok)).toBe(true);
    for (const bad of ['javascript:x', '//evil', '/\\evil', 'data:x', 'ftp://x', 'foo', '#top', '/a b'])
      expect(safeLink(bad)).toBe(false);
  });
});

describe('renderMarkdown: features', () => {
  it('renders paragraphs, emphasis, lists, quotes, code and strikethrough', () => {
    expect(render('a *b* **c** ~~d~~ `e`')).toBe(
      '<p>a <em>b</em> <strong>c</strong> <s>d</s> <code>e</code></p>\n',
    );
    expect(render('- a\n- b\n\n1. c')).toBe('<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n<ol>\n<li>c</li>\n</ol>\n');
    expect(render('> quoted')).toBe('<blockquote>\n<p>quoted</p>\n</blockquote>\n');
    expect(render('```ts\nlet a = 1 < 2;\n```')).toBe(
      '<pre><code class="language-ts">let a = 1 &lt; 2;\n</code></pre>\n',
    );
    expect(render('line one\nline two')).toBe('<p>line one\nline two</p>\n');
  });

  it('renders tables', () => {
    expect(render('| a | b |\n|---|--:|\n| 1 | 2 |')).toContain('<td style="text-align:right">2</td>');
  });

  it('links addresses, marking external ones', () => {
    expect(render('[site](https://example.com)')).toBe(
      '<p><a href="https://example.com" rel="noopener noreferrer nofollow">site</a></p>\n',
    );
    expect(render('see www.example.com')).toContain(
      '<a href="http://www.example.com" rel="noopener noreferrer nofollow">',
    );
    expect(render('<https://example.com/a>')).toContain(
      'href="https://example.com/a" rel="noopener noreferrer nofollow"',
    );
    expect(render('[board](/w/acme/p/web)')).toBe('<p><a href="/w/acme/p/web">board</a></p>\n');
    expect(render('write to ana@example.com')).toContain(
      '<a href="mailto:ana@example.com">ana@example.com</a>',
    );
  });

  it("shows images only from the workspace's own files; others become links", () => {
    expect(render(`![plan](${FILE})`)).toBe(`<p><img src="${FILE}" alt="plan" loading="lazy"></p>\n`);
    expect(render('![plan](/w/other/files/0b0b0b0b-0000-4000-8000-000000000000)')).toBe(
      '<p><a href="/w/other/files/0b0b0b0b-0000-4000-8000-000000000000">plan</a></p>\n',
    );
    expect(render('![plan](https://example.com/p.png)')).toBe(
      '<p><a href="https://example.com/p.png" rel="noopener noreferrer nofollow">plan</a></p>\n',
    );
  });

  it('links task keys the reader can see, in any case, with their title; others stay text', () => {
    const html = render('see web-2, WEB-3 and `WEB-2`, not XWEB-2 or WEB-22');
    expect(html).toBe(
      '<p>see <a href="/w/acme/p/web/t/2" class="task-ref" title="Fix &lt;b&gt;login&lt;/b&gt;"><span>WEB-2</span> Fix &lt;b&gt;login&lt;/b&gt;</a>, WEB-3 and <code>WEB-2</code>, not XWEB-2 or WEB-22</p>\n',
    );
    // Inside a link the words stay the link's own.
    expect(render('[about WEB-2](https://example.com)')).not.toContain('task-ref');
  });

  it('marks mentions of members, by the mention rule, and leaves others and e-mail addresses alone', () => {
    expect(render('hi @ana, @AnaSilva and @bo. Not @carol or x@bo')).toBe(
      '<p>hi <span class="mention" data-user-ids="u-ana">@ana</span>, <span class="mention" data-user-ids="u-ana">@AnaSilva</span> and <span class="mention" data-user-ids="u-bo">@bo</span>. Not @carol or x@bo</p>\n',
    );
  });

  it('turns checklist lines into boxes: buttons to tick for members, plain boxes otherwise', () => {
    const source = '- [ ] write tests\n- [x] ship it\n\n```\n- [ ] code\n```\n\n* [ ] third';
    const shown = render(source);
    expect(shown.match(/<input type="checkbox"/g)).toHaveLength(3);
    expect(shown).toContain(
      '<input type="checkbox" class="checklist-box" disabled checked aria-label="ship it"> ship it',
    );
    expect(shown).toContain('- [ ] code');
    const tickable = render(source, { tickable: true });
    expect(tickable).toContain(
      '<button type="submit" name="item" value="1:1:write tests" role="checkbox" aria-checked="false" aria-label="write tests" data-item="1" data-checked="false" class="checklist-box"></button> write tests',
    );
    expect(tickable).toContain('value="2:0:ship it"');
    expect(tickable).toContain('value="3:1:third"');
  });

  it('finds the task keys of a batch once each, in capitals', () => {
    expect(taskKeysIn(['web-2 and WEB-2', 'OPS-10; x-1 ABCDEFGHIJK-1'])).toEqual([
      { project: 'WEB', number: 2 },
      { project: 'OPS', number: 10 },
    ]);
  });
});
