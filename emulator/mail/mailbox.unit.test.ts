import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutgoingMail } from '../lib/mail.ts';
import { startMailbox, type Mailbox } from './mailbox.ts';

interface Summary {
  ID: string;
  Subject: string;
  Snippet: string;
  To: { Name: string; Address: string }[];
  Read: boolean;
  Size: number;
}
interface Listing {
  total: number;
  unread: number;
  count: number;
  start: number;
  messages: Summary[];
}

function mail(overrides: Partial<OutgoingMail> = {}): OutgoingMail {
  return {
    from: { Name: 'Crewboard', Address: 'noreply@crewboard.test' },
    to: [{ Name: '', Address: 'ada@example.com' }],
    subject: 'Your Magic Link',
    text: 'Hello   there,\n\nyour code is 123456.',
    html: '<p>Hello there, your code is <b>123456</b>.</p>',
    ...overrides,
  };
}

let box: Mailbox;

beforeEach(async () => {
  box = await startMailbox({ port: 0 });
});
afterEach(async () => {
  await box.close();
});

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(box.url + path);
  expect(res.status).toBe(200);
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  return (await res.json()) as T;
}

describe('mailbox API', () => {
  it('reports the real port when started on port 0', () => {
    expect(box.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(box.url.endsWith(':0')).toBe(false);
  });

  it('lists delivered messages newest first with total and snippet', async () => {
    const first = box.deliver(mail({ subject: 'first' }));
    const second = box.deliver(mail({ subject: 'second' }));
    expect(first.ID).toMatch(/^[A-Za-z0-9]{10,}$/);
    expect(first.ID).not.toBe(second.ID);
    expect(box.messages().map((m) => m.Subject)).toEqual(['second', 'first']);

    const list = await getJson<Listing>('/api/v1/messages');
    expect(list.total).toBe(2);
    expect(list.count).toBe(2);
    expect(list.unread).toBe(0);
    expect(list.start).toBe(0);
    expect(list.messages.map((m) => m.Subject)).toEqual(['second', 'first']);
    expect(list.messages[0]?.Snippet).toBe('Hello there, your code is 123456.');
    expect(list.messages[0]?.To).toEqual([{ Name: '', Address: 'ada@example.com' }]);
    expect(list.messages[0]?.Read).toBe(false);
    expect(list.messages[0]?.Size).toBeGreaterThan(0);

    const page = await getJson<Listing>('/api/v1/messages?limit=1&start=1');
    expect(page.total).toBe(2);
    expect(page.count).toBe(1);
    expect(page.start).toBe(1);
    expect(page.messages[0]?.ID).toBe(first.ID);
  });

  it('cuts long snippets to about 250 characters', () => {
    const stored = box.deliver(mail({ text: 'word '.repeat(200) }));
    expect(stored.Snippet.length).toBeLessThanOrEqual(251);
    expect(stored.Snippet.length).toBeGreaterThan(200);
    expect(stored.Snippet).not.toMatch(/\s{2}/);
  });

  it('searches by recipient, case-insensitively, quoted or not', async () => {
    box.deliver(mail({ to: [{ Name: 'Ada', Address: 'Ada@Example.com' }], subject: 'for ada' }));
    box.deliver(mail({ to: [{ Name: '', Address: 'bob@example.com' }], subject: 'for bob' }));
    const quoted = await getJson<Listing>(
      `/api/v1/search?query=${encodeURIComponent('to:"ada@example.COM"')}`,
    );
    expect(quoted.messages.map((m) => m.Subject)).toEqual(['for ada']);
    const bare = await getJson<Listing>(`/api/v1/search?query=${encodeURIComponent('to:bob@example.com')}`);
    expect(bare.messages.map((m) => m.Subject)).toEqual(['for bob']);
    expect(bare.count).toBe(1);
  });

  it('searches by subject and bare words, ANDing terms', async () => {
    box.deliver(mail({ subject: 'Reset Your Password', text: 'reset link inside' }));
    box.deliver(mail({ subject: 'Confirm Your Signup', text: 'Welcome aboard, captain' }));
    const bySubject = await getJson<Listing>(
      `/api/v1/search?query=${encodeURIComponent('subject:"reset your"')}`,
    );
    expect(bySubject.messages.map((m) => m.Subject)).toEqual(['Reset Your Password']);
    const byWord = await getJson<Listing>('/api/v1/search?query=CAPTAIN');
    expect(byWord.messages.map((m) => m.Subject)).toEqual(['Confirm Your Signup']);
    const both = await getJson<Listing>(`/api/v1/search?query=${encodeURIComponent('your captain')}`);
    expect(both.messages.map((m) => m.Subject)).toEqual(['Confirm Your Signup']);
    const none = await getJson<Listing>(
      `/api/v1/search?query=${encodeURIComponent('captain subject:reset')}`,
    );
    expect(none.messages).toEqual([]);
    box.deliver(mail({ subject: 'html only', text: '', html: '<p>Only in the <b>HTML</b> part</p>' }));
    const htmlOnly = await getJson<Listing>(`/api/v1/search?query=${encodeURIComponent('"in the html"')}`);
    expect(htmlOnly.messages.map((m) => m.Subject)).toEqual(['html only']);
    expect(htmlOnly.messages[0]?.Snippet).toBe('Only in the HTML part');
    const from = await getJson<Listing>(
      `/api/v1/search?query=${encodeURIComponent('from:noreply@crewboard')}`,
    );
    expect(from.count).toBe(3);
  });

  it('returns one message by ID and by "latest", and 404 for an unknown ID', async () => {
    const older = box.deliver(mail({ subject: 'older', html: '<p>older html</p>' }));
    const newer = box.deliver(mail({ subject: 'newer' }));
    const one = await getJson<Record<string, unknown>>(`/api/v1/message/${older.ID}`);
    expect(one).toMatchObject({
      ID: older.ID,
      MessageID: older.MessageID,
      Subject: 'older',
      HTML: '<p>older html</p>',
      Text: older.Text,
      From: { Name: 'Crewboard', Address: 'noreply@crewboard.test' },
      Cc: [],
      Bcc: [],
      ReplyTo: [],
      Attachments: [],
    });
    expect(typeof one.Size).toBe('number');
    const latest = await getJson<{ ID: string }>('/api/v1/message/latest');
    expect(latest.ID).toBe(newer.ID);

    const missing = await fetch(`${box.url}/api/v1/message/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('message not found');
  });

  it('deletes some messages by ID, then all', async () => {
    const a = box.deliver(mail({ subject: 'a' }));
    box.deliver(mail({ subject: 'b' }));
    const c = box.deliver(mail({ subject: 'c' }));
    const some = await fetch(`${box.url}/api/v1/messages`, {
      method: 'DELETE',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ IDs: [a.ID, c.ID] }),
    });
    expect(some.status).toBe(200);
    expect(await some.text()).toBe('ok');
    expect(box.messages().map((m) => m.Subject)).toEqual(['b']);

    box.deliver(mail({ subject: 'd' }));
    const withEmptyObject = await fetch(`${box.url}/api/v1/messages`, { method: 'DELETE', body: '{}' });
    expect(withEmptyObject.status).toBe(200);
    expect(box.messages()).toEqual([]);

    box.deliver(mail({ subject: 'e' }));
    const withoutBody = await fetch(`${box.url}/api/v1/messages`, { method: 'DELETE' });
    expect(withoutBody.status).toBe(200);
    expect((await getJson<Listing>('/api/v1/messages')).total).toBe(0);
  });

  it('drops the oldest messages beyond the limit', async () => {
    await box.close();
    box = await startMailbox({ port: 0, limit: 3 });
    for (const subject of ['1', '2', '3', '4', '5']) box.deliver(mail({ subject }));
    expect(box.messages().map((m) => m.Subject)).toEqual(['5', '4', '3']);
    expect((await getJson<Listing>('/api/v1/messages')).total).toBe(3);
  });

  it('answers 400 to malformed JSON on DELETE and keeps the messages', async () => {
    box.deliver(mail());
    const res = await fetch(`${box.url}/api/v1/messages`, { method: 'DELETE', body: '{"IDs": [' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'invalid JSON' });
    expect(box.messages()).toHaveLength(1);
  });

  it('answers 413 to a body over 1 MB and keeps working', async () => {
    box.deliver(mail());
    const res = await fetch(`${box.url}/api/v1/messages`, {
      method: 'DELETE',
      body: 'x'.repeat(1024 * 1024 + 10),
    });
    expect(res.status).toBe(413);
    expect(box.messages()).toHaveLength(1);
    expect((await getJson<Listing>('/api/v1/messages')).total).toBe(1);
  });

  it('answers 405 to other methods and 404 JSON to unknown paths', async () => {
    const post = await fetch(`${box.url}/api/v1/messages`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toContain('DELETE');
    const put = await fetch(`${box.url}/api/v1/message/latest`, { method: 'PUT' });
    expect(put.status).toBe(405);
    const unknown = await fetch(`${box.url}/api/v2/whatever`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'not found' });
  });

  it('rejects with a clear error when the port is taken', async () => {
    const port = Number(new URL(box.url).port);
    await expect(startMailbox({ port })).rejects.toThrow(/already in use/);
  });

  it('can be closed twice', async () => {
    await box.close();
    await box.close();
    await expect(fetch(`${box.url}/api/v1/messages`)).rejects.toThrow();
  });
});

describe('mailbox web pages', () => {
  it('lists subjects on the index page, escaped, with a script-free CSP', async () => {
    box.deliver(mail({ subject: 'Confirm Your Signup' }));
    const evil = box.deliver(mail({ subject: '<script>alert(1)</script>' }));
    const res = await fetch(`${box.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'none'");
    const html = await res.text();
    expect(html).toContain('Confirm Your Signup');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain(`href="/view/${evil.ID}"`);
    expect(html.indexOf('&lt;script&gt;')).toBeLessThan(html.indexOf('Confirm Your Signup'));
  });

  it('shows one message with its HTML in a sandboxed, escaped srcdoc and its text in a <pre>', async () => {
    const stored = box.deliver(
      mail({
        subject: 'Reset',
        html: '<p class="x">Hi & <a href="http://localhost:3000/auth/confirm?a=1&amp;b=2">reset</a></p><script>bad()</script>',
        text: 'Plain <text> body',
      }),
    );
    const res = await fetch(`${box.url}/view/${stored.ID}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'none'");
    const html = await res.text();
    const frame = /<iframe\b[^>]*>/.exec(html)?.[0] ?? '';
    expect(frame).toMatch(/\ssandbox(=|\s)/);
    expect(frame).not.toContain('allow-scripts');
    expect(frame).toContain('srcdoc="');
    expect(frame).toContain('&lt;p class=&quot;x&quot;&gt;Hi &amp;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('<pre>Plain &lt;text&gt; body</pre>');
    expect(html).toContain('href="http://localhost:3000/auth/confirm?a=1&amp;b=2"');

    const full = box.deliver(
      mail({ html: '<!doctype html><html><head><title>t</title></head><body>x</body></html>' }),
    );
    const fullPage = await (await fetch(`${box.url}/view/${full.ID}`)).text();
    expect(fullPage).toContain(
      'srcdoc="&lt;!doctype html&gt;&lt;html&gt;&lt;head&gt;&lt;base target=&quot;_blank&quot;&gt;',
    );

    const missing = await fetch(`${box.url}/view/nope`);
    expect(missing.status).toBe(404);
  });
});

describe('startMailbox on a chosen port', () => {
  it('listens on the port it was given', async () => {
    const port = await new Promise<number>((resolve, reject) => {
      const probe = net.createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const address = probe.address();
        const free = typeof address === 'object' && address ? address.port : 0;
        probe.close(() => resolve(free));
      });
    });
    const other = await startMailbox({ port });
    try {
      expect(other.url).toBe(`http://127.0.0.1:${port}`);
      const res = await fetch(`${other.url}/api/v1/messages`);
      expect(res.status).toBe(200);
    } finally {
      await other.close();
    }
  });
});
