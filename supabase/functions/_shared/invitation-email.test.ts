import assert from 'node:assert/strict';
import { invitationMessage } from './invitation-email.ts';

const base = {
  to: 'new@example.test',
  inviter: 'Ada',
  workspace: 'Acme',
  role: 'admin',
  link: 'http://localhost:3000/invite/abc',
  expiresAt: new Date('2030-01-08T12:00:00Z'),
};

Deno.test('says who invites, where, as what, until when', () => {
  const mail = invitationMessage(base);
  assert.equal(mail.subject, 'Ada invited you to Acme on Crewboard');
  assert.match(mail.text, /join the workspace “Acme” on Crewboard as an admin\./);
  assert.match(mail.text, /Accept the invitation: http:\/\/localhost:3000\/invite\/abc/);
  assert.match(mail.text, /until 8 January 2030 and only for new@example\.test/);
  assert.match(mail.html, /href="http:\/\/localhost:3000\/invite\/abc"/);
  assert.match(invitationMessage({ ...base, role: 'viewer' }).text, /as a viewer\./);
});

Deno.test('escapes names in the HTML and keeps the subject on one line', () => {
  const mail = invitationMessage({ ...base, inviter: '<b>Eve</b>\r\nBcc: x@y', workspace: 'A & "B"' });
  assert.ok(!mail.html.includes('<b>Eve'));
  assert.match(mail.html, /&lt;b&gt;Eve&lt;\/b&gt;/);
  assert.match(mail.html, /A &amp; &quot;B&quot;/);
  assert.ok(!/[\r\n]/.test(mail.subject));
});
