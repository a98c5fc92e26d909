// The invitation email: subject, plain text and HTML, every value from the database escaped.
export interface Invitation {
  to: string;
  inviter: string;
  workspace: string;
  role: string;
  link: string;
  expiresAt: Date;
}

export const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function invitationMessage(mail: Invitation): { subject: string; text: string; html: string } {
  const until = mail.expiresAt.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const article = /^[aeiou]/.test(mail.role) ? 'an' : 'a';
  // A subject is one header line: no line breaks from a name.
  const subject = `${mail.inviter} invited you to ${mail.workspace} on Crewboard`.replace(/[\r\n]+/g, ' ');
  const text = [
    `${mail.inviter} invited you to join the workspace “${mail.workspace}” on Crewboard as ${article} ${mail.role}.`,
    '',
    `Accept the invitation: ${mail.link}`,
    '',
    `The link works until ${until} and only for ${mail.to}. If you weren't expecting it, ignore this email.`,
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family: system-ui, sans-serif; color: #0f172a; line-height: 1.5">
<p><strong>${escapeHtml(mail.inviter)}</strong> invited you to join the workspace <strong>${escapeHtml(mail.workspace)}</strong> on Crewboard as ${article} ${escapeHtml(mail.role)}.</p>
<p><a href="${escapeHtml(mail.link)}" style="display: inline-block; padding: 8px 16px; background: #0f172a; color: #fff; border-radius: 6px; text-decoration: none">Accept the invitation</a></p>
<p style="color: #475569; font-size: 14px">The link works until ${until} and only for ${escapeHtml(mail.to)}. If you weren't expecting it, ignore this email.</p>
</body></html>`;
  return { subject, text, html };
}
