import http from 'node:http';
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sendInvitationEmail } from './mail.server.ts';

// What the function answers decides what the inviter is told: a stand-in backend answers each case.
let answer = { status: 200, body: '{"sent":true}' };
let seen: { url?: string; body?: string; authorization?: string } = {};
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    seen = { url: req.url, body, authorization: req.headers.authorization };
    res.writeHead(answer.status, { 'Content-Type': 'application/json' });
    res.end(answer.body);
  });
});

beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function client() {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return createClient(`http://127.0.0.1:${port}`, 'anon-key-for-this-test', {
    auth: { persistSession: false },
  });
}

const invitation = { id: '00000000-0000-4000-8000-000000000001', token: 'a'.repeat(64) };

describe('sendInvitationEmail', () => {
  it('calls send-invitation with the invitation and reports it sent', async () => {
    answer = { status: 200, body: '{"sent":true}' };
    expect(await sendInvitationEmail(client(), invitation)).toBe('sent');
    expect(seen.url).toBe('/functions/v1/send-invitation');
    expect(JSON.parse(seen.body ?? '')).toEqual({ invitation_id: invitation.id, token: invitation.token });
  });

  it('reports unconfigured when the backend has no such function', async () => {
    answer = { status: 404, body: 'Function not found' };
    expect(await sendInvitationEmail(client(), invitation)).toBe('unconfigured');
  });

  it('reports failed when the function refuses or the email does not leave', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const status of [403, 502, 503]) {
      answer = { status, body: '{"error":"x"}' };
      expect(await sendInvitationEmail(client(), invitation)).toBe('failed');
    }
    expect(warn).toHaveBeenCalledTimes(3);
    warn.mockRestore();
  });
});
