import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { htmlToText } from '../lib/mail.ts';
import { DEFAULT_TEMPLATES, TemplateError, renderTemplate, type TemplateData } from './templates.ts';

function data(overrides: Partial<TemplateData> = {}): TemplateData {
  return {
    ConfirmationURL: 'http://127.0.0.1:54321/auth/v1/verify?token=abc&type=magiclink',
    Token: '123456',
    TokenHash: 'hash123',
    SiteURL: 'http://localhost:3000',
    RedirectTo: '',
    Email: 'ada@example.com',
    NewEmail: 'ada@new.example.com',
    Data: {},
    ...overrides,
  };
}

describe('renderTemplate', () => {
  it('substitutes placeholders with any whitespace inside the braces', () => {
    const out = renderTemplate('Code {{ .Token }}, {{.Email}}, {{   .TokenHash\n}}', data());
    expect(out).toBe('Code 123456, ada@example.com, hash123');
  });

  it('HTML-escapes substituted values, URLs included', () => {
    const out = renderTemplate(
      '<p>{{ .Email }}</p><a href="{{ .ConfirmationURL }}">x</a>',
      data({ Email: `<b>"o'k"</b> & co` }),
    );
    expect(out).toBe(
      '<p>&lt;b&gt;&#34;o&#39;k&#34;&lt;/b&gt; &amp; co</p>' +
        '<a href="http://127.0.0.1:54321/auth/v1/verify?token=abc&amp;type=magiclink">x</a>',
    );
  });

  it('refuses a javascript: URL at the start of an href, like Go does', () => {
    const out = renderTemplate(
      '<a href="{{ .Data.site }}">x</a>',
      data({ Data: { site: 'javascript:alert(1)' } }),
    );
    expect(out).toBe('<a href="#ZgotmplZ">x</a>');
  });

  it('reads user metadata with .Data.key, escaped', () => {
    const out = renderTemplate(
      'Hi {{ .Data.display_name }} ({{ .Data.team.name }}, {{ .Data.missing }})',
      data({ Data: { display_name: 'Ada <L>', team: { name: 'Ops' } } }),
    );
    expect(out).toBe('Hi Ada &lt;L&gt; (Ops, )');
  });

  it('renders if/else/end branches by truthiness', () => {
    const source = '{{ if .Data.display_name }}Hi {{ .Data.display_name }}{{ else }}Hi there{{ end }}!';
    expect(renderTemplate(source, data({ Data: { display_name: 'Ada' } }))).toBe('Hi Ada!');
    expect(renderTemplate(source, data())).toBe('Hi there!');
    expect(renderTemplate('{{ if .RedirectTo }}yes{{ end }}.', data())).toBe('.');
    expect(renderTemplate('{{ if .NewEmail }}{{ if .Token }}both{{ end }}{{ end }}', data())).toBe('both');
    expect(renderTemplate('{{ if not .RedirectTo }}none{{ end }}', data())).toBe('none');
    expect(renderTemplate('{{ if .RedirectTo }}a{{ else if .Token }}b{{ else }}c{{ end }}', data())).toBe(
      'b',
    );
  });

  it('renders unknown fields as empty strings', () => {
    expect(renderTemplate('[{{ .Nope }}][{{ .constructor }}][{{ .Data.toString }}]', data())).toBe('[][][]');
  });

  it('honours trim markers and comments', () => {
    expect(renderTemplate('a  {{- .Token -}}  b{{/* note */}}', data())).toBe('a123456b');
  });

  it('rejects malformed or unsupported templates with a TemplateError', () => {
    expect(() => renderTemplate('{{ if .Token }}x', data())).toThrow(TemplateError);
    expect(() => renderTemplate('x{{ end }}', data())).toThrow(TemplateError);
    expect(() => renderTemplate('{{ range .Data }}{{ end }}', data())).toThrow(/Unsupported/);
  });
});

describe('htmlToText', () => {
  it('turns links into "label (URL)" with entities decoded in the URL', () => {
    const text = htmlToText('<p>Go <a href="http://x.test/a?b=1&amp;c=2">sign in</a> now</p>');
    expect(text).toBe('Go sign in (http://x.test/a?b=1&c=2) now');
  });

  it('turns blocks and breaks into lines and decodes entities', () => {
    const text = htmlToText(
      '<html><head><title>T</title><style>p{}</style></head><body>\n<h2>Hello &amp; welcome</h2>\n' +
        '<p>Line one<br>line   two</p>\n\n\n<p>&lt;code&gt; &#49;&#x32;3</p></body></html>',
    );
    expect(text).toBe('Hello & welcome\n\nLine one\nline two\n\n<code> 123');
  });

  it('shows a bare URL once when the label is the URL', () => {
    expect(htmlToText('<a href="https://a.test/">https://a.test/</a>')).toBe('https://a.test/');
  });
});

describe('DEFAULT_TEMPLATES', () => {
  it('uses GoTrue subjects and links to the confirmation URL and token', () => {
    expect(DEFAULT_TEMPLATES.confirmation.subject).toBe('Confirm Your Signup');
    expect(DEFAULT_TEMPLATES.recovery.subject).toBe('Reset Your Password');
    for (const [name, template] of Object.entries(DEFAULT_TEMPLATES)) {
      const html = renderTemplate(template.html, data());
      expect(html, name).toContain('123456');
      if (name !== 'reauthentication') {
        expect(html, name).toContain(
          'href="http://127.0.0.1:54321/auth/v1/verify?token=abc&amp;type=magiclink"',
        );
      }
    }
  });
});

describe('supabase/templates', () => {
  const dir = path.resolve(import.meta.dirname, '../../supabase/templates');
  const read = (name: string) => readFileSync(path.join(dir, `${name}.html`), 'utf8');

  it('render with the real renderer and contain the expected links and codes', () => {
    const d = data({ Data: { display_name: 'Ada' } });
    const confirm = (type: string) => `http://localhost:3000/auth/confirm?token_hash=hash123&type=${type}`;
    expect(renderTemplate(read('confirmation'), d)).toContain(confirm('signup'));
    expect(renderTemplate(read('recovery'), d)).toContain(confirm('recovery'));
    expect(renderTemplate(read('invite'), d)).toContain(confirm('invite'));
    const change = renderTemplate(read('email_change'), d);
    expect(change).toContain(confirm('email_change'));
    expect(htmlToText(change)).toContain('from ada@example.com to ada@new.example.com');
    const magic = htmlToText(renderTemplate(read('magic_link'), d));
    expect(magic).toContain('Your sign-in code is 123456. It expires in 10 minutes.');
    expect(magic).toContain('(http://127.0.0.1:54321/auth/v1/verify?token=abc&type=magiclink)');
    const reauth = renderTemplate(read('reauthentication'), d);
    expect(reauth).toContain('123456');
    expect(reauth).not.toContain('href=');
    for (const name of ['confirmation', 'recovery'])
      expect(renderTemplate(read(name), d)).toContain('123456');
  });
});
