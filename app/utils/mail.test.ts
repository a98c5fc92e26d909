import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reloadConfig } from './env.server.ts';
import { invitationMessage, sendInvitationEmail } from './mail.server.ts';

const invitation = {
  to: 'grace@example.com',
  inviter: 'Ada <script>',
  workspace: 'Northwind & Co',
  role: 'admin',
  link: 'https://crewboard.test/invite/abc?x=1&y=2',
  expiresAt: new Date('2026-12-01T10:00:00Z'),
};

describe('invitation emails', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('says who invited whom to what, with the link and its limits, escaped in HTML', () => {
    const { subject, text, html } = invitationMessage(invitation);
    expect(subject).toBe('Ada <script> invited you to Northwind & Co on Crewboard');
    expect(text).toContain('as an admin');
    expect(text).toContain('Accept the invitation: https://crewboard.test/invite/abc?x=1&y=2');
    expect(text).toContain('until 1 December 2026 and only for grace@example.com');
    expect(html).toContain('Ada &lt;script&gt;');
    expect(html).toContain('Northwind &amp; Co');
    expect(html).toContain('href="https://crewboard.test/invite/abc?x=1&amp;y=2"');
    expect(html).not.toContain('<script>');
  });

  it('reports an unconfigured server instead of failing the invitation', async () => {
    vi.stubEnv('SMTP_URL', '');
    reloadConfig();
    expect(await sendInvitationEmail(invitation)).toBe('unconfigured');
  });

  it('reports a failure when the SMTP server refuses the connection', async () => {
    // A port that was free a moment ago: nothing listens there.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    vi.stubEnv('SMTP_URL', `smtp://127.0.0.1:${port}`);
    reloadConfig();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await sendInvitationEmail(invitation)).toBe('failed');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('grace@example.com'));
  });
});
