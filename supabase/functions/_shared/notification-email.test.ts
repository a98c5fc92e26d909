import assert from 'node:assert/strict';
import { type EmailNotification, notificationMessage } from './notification-email.ts';

const mention: EmailNotification = {
  kind: 'mentioned',
  data: { task: { ref: 'CRW-3', title: 'Fix the login' }, excerpt: 'Can you look, @grace?' },
  created_at: '2030-01-01T10:00:00Z',
  actor: 'Ada',
  workspace: { name: 'Acme', slug: 'acme' },
  path: '/w/acme/p/123/t/3',
};

const base = {
  to: 'grace@example.test',
  name: 'Grace',
  notifications: [mention],
  messageKey: 'notifications.abc123',
  unsubscribeToken: '11111111-2222-3333-4444-555555555555.' + 'a'.repeat(64),
  siteUrl: 'http://localhost:3000/',
  from: 'Crewboard <no-reply@crewboard.test>',
};

Deno.test('one notification: its line is the subject, with a link to the task', () => {
  const mail = notificationMessage(base);
  assert.equal(mail.subject, 'Ada mentioned you on CRW-3 Fix the login');
  assert.match(mail.text, /- Ada mentioned you on CRW-3 Fix the login \(Acme\)/);
  assert.match(mail.text, /“Can you look, @grace\?”/);
  assert.match(mail.text, /http:\/\/localhost:3000\/w\/acme\/p\/123\/t\/3/);
  assert.match(mail.html, /href="http:\/\/localhost:3000\/w\/acme\/p\/123\/t\/3"/);
});

Deno.test('several: counted in the subject, each listed', () => {
  const assigned = { ...mention, kind: 'assigned', data: { task: { ref: 'CRW-4', title: 'Ship' } } };
  const moved = {
    ...mention,
    kind: 'status_changed',
    data: { task: { ref: 'CRW-5', title: 'Docs' }, from: 'todo', to: 'done' },
  };
  const mail = notificationMessage({ ...base, notifications: [mention, assigned, moved] });
  assert.equal(mail.subject, '3 new notifications on Crewboard');
  assert.match(mail.text, /Ada assigned you CRW-4 Ship/);
  assert.match(mail.text, /Ada moved CRW-5 Docs \(todo → done\)/);
  assert.equal((mail.html.match(/<li /g) ?? []).length, 3);
});

Deno.test('one-click unsubscribe: RFC 8058 headers and the same link in the body', () => {
  const mail = notificationMessage(base);
  const link = `http://localhost:3000/unsubscribe/${base.unsubscribeToken}`;
  assert.equal(mail.headers['List-Unsubscribe'], `<${link}>`);
  assert.equal(mail.headers['List-Unsubscribe-Post'], 'List-Unsubscribe=One-Click');
  assert.match(mail.text, new RegExp(`Unsubscribe from these emails: ${link.replaceAll('.', '\\.')}`));
  assert.ok(mail.html.includes(`href="${link}"`));
});

Deno.test('a stable Message-ID on the sender’s domain', () => {
  assert.equal(notificationMessage(base).messageId, '<notifications.abc123@crewboard.test>');
  assert.equal(notificationMessage(base).messageId, notificationMessage(base).messageId);
  assert.equal(
    notificationMessage({ ...base, from: 'bad <x@"evil>' }).messageId,
    '<notifications.abc123@crewboard.invalid>',
  );
});

Deno.test('escapes what people wrote in the HTML and keeps the subject on one line', () => {
  const evil = {
    ...mention,
    actor: '<b>Eve</b>\r\nBcc: x@y',
    data: { task: { ref: 'CRW-1', title: 'A & "B"' }, excerpt: '<script>alert(1)</script>' },
    workspace: { name: "O'Hare <x>", slug: 'o' },
  };
  const mail = notificationMessage({ ...base, name: '<i>Grace</i>', notifications: [evil] });
  assert.ok(!/[\r\n]/.test(mail.subject));
  assert.ok(!mail.html.includes('<b>Eve'));
  assert.ok(!mail.html.includes('<script>'));
  assert.ok(!mail.html.includes('<i>Grace'));
  assert.match(mail.html, /&lt;b&gt;Eve&lt;\/b&gt; Bcc: x@y/);
  assert.match(mail.html, /A &amp; &quot;B&quot;/);
  assert.match(mail.html, /O&#39;Hare &lt;x&gt;/);
  for (const value of Object.values(mail.headers)) assert.ok(!/[\r\n]/.test(value));
});
