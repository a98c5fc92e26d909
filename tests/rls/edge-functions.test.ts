// The app's two Edge Functions on the local backend, called through supabase-js as each
// role of a workspace: send-invitation mails only for an admin, export-tasks gives any member the
// board as CSV and an outsider nothing.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAIL_FROM, parseMailFrom } from '../../emulator/config.ts';
import { anonClient, awaitMail, backend, latestLinksFor, mailTo, uniqueEmail } from '../support/backend.ts';
import { scene, type Person } from '../support/scene.ts';

async function status(result: { error: unknown }): Promise<number> {
  if (!result.error) return 200;
  const context = (result.error as { context?: Response }).context;
  return context?.status ?? 0;
}

async function invite(admin: Person, ws: string, email: string): Promise<{ id: string; token: string }> {
  const { data, error } = await admin.client.rpc('create_invitation', {
    workspace_id: ws,
    email,
    role: 'member',
  });
  if (error) throw error;
  const row = (data as Array<{ invitation_id: string; token: string }>)[0];
  if (!row) throw new Error('create_invitation returned nothing');
  return { id: row.invitation_id, token: row.token };
}

describe('send-invitation', () => {
  it('mails the invitation when an admin asks, with a link that opens it, from MAIL_FROM', async () => {
    const cast = await scene();
    const email = uniqueEmail('invitee');
    const { id, token } = await invite(cast.admin, cast.ws, email);
    const sent = await cast.admin.client.functions.invoke('send-invitation', {
      body: { invitation_id: id, token },
    });
    expect(sent.error).toBeNull();
    expect(sent.data).toEqual({ sent: true, to: email });
    const mails = await mailTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.Subject).toMatch(/invited you to Acme on Crewboard/);
    const links = await latestLinksFor(email);
    expect(links.some((l) => l.endsWith(`/invite/${token}`))).toBe(true);

    // One sender for all mail: the confirmation of the account the invitation leads to comes from the
    // same address. The test backend runs with the shell's MAIL_FROM, if any, over the default.
    const { error } = await anonClient().auth.signUp({ email, password: 'a-good-password' });
    expect(error).toBeNull();
    const invitation = await awaitMail(email, { subject: /invited you/ });
    const confirmation = await awaitMail(email, { subject: /Confirm your Crewboard account/ });
    const expected = parseMailFrom(process.env.MAIL_FROM?.trim() || DEFAULT_MAIL_FROM);
    expect(invitation.From).toEqual(expected);
    expect(confirmation.From).toEqual(expected);
  });

  it('refuses a member, a viewer and an outsider with 403, and sends nothing', async () => {
    const cast = await scene();
    const email = uniqueEmail('invitee');
    const { id, token } = await invite(cast.admin, cast.ws, email);
    for (const who of [cast.member, cast.viewer, cast.outsider]) {
      const res = await who.client.functions.invoke('send-invitation', {
        body: { invitation_id: id, token },
      });
      expect(await status(res)).toBe(403);
    }
    expect(await mailTo(email)).toHaveLength(0);
  });

  it('refuses a token that is not the invitation’s current one', async () => {
    const cast = await scene();
    const email = uniqueEmail('invitee');
    const { id, token } = await invite(cast.admin, cast.ws, email);
    const { error } = await cast.admin.client.rpc('resend_invitation', { invitation_id: id });
    expect(error).toBeNull();
    const res = await cast.admin.client.functions.invoke('send-invitation', {
      body: { invitation_id: id, token },
    });
    expect(await status(res)).toBe(400);
    expect(await mailTo(email)).toHaveLength(0);
  });

  it('needs a signed-in caller: the anon key alone finds no invitation', async () => {
    const cast = await scene();
    const { id, token } = await invite(cast.admin, cast.ws, uniqueEmail('invitee'));
    const res = await fetch(`${backend().apiUrl}/functions/v1/send-invitation`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${backend().anonKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ invitation_id: id, token }),
    });
    expect(res.status).toBe(403);
  });
});

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += c;
  }
  return rows;
}

describe('export-tasks', () => {
  const exportAs = (who: Person, project: string) =>
    who.client.functions.invoke(`export-tasks?project=${project}`, { method: 'GET' });

  it('gives a viewer the board as RFC 4180 CSV, formulas defused', async () => {
    const cast = await scene();
    const tricky = ['=HYPERLINK("http://evil.test","click")', 'a, b and "c"', '-1+2', '@SUM'];
    for (const title of tricky) {
      const { error } = await cast.member.client.from('tasks').insert({
        workspace_id: cast.ws,
        project_id: cast.project,
        title,
        description: 'line one\nline two',
      });
      expect(error).toBeNull();
    }
    const labels: Record<string, string> = {};
    for (const name of ['bug', '=sum', '"Quoted"']) {
      const { data, error } = await cast.admin.client
        .from('labels')
        .insert({ workspace_id: cast.ws, name, color: 'blue' })
        .select('id')
        .single();
      expect(error).toBeNull();
      labels[name] = data?.id ?? '';
    }
    const { data: tasks } = await cast.member.client
      .from('tasks')
      .select('id, number')
      .eq('project_id', cast.project)
      .order('number');
    const [first, , , , fifth] = tasks ?? [];
    for (const [task, names] of [
      [first?.id, ['bug', '=sum', '"Quoted"']],
      [fifth?.id, ['bug', '=sum']],
    ] as const) {
      const { error } = await cast.member.client.rpc('set_task_labels', {
        task_id: task,
        label_ids: names.map((n) => labels[n]),
      });
      expect(error).toBeNull();
    }
    const res = await fetch(`${backend().apiUrl}/functions/v1/export-tasks?project=${cast.project}`, {
      headers: {
        Authorization: `Bearer ${(await cast.viewer.client.auth.getSession()).data.session?.access_token}`,
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="launch-tasks.csv"');
    const rows = parseCsv(await res.text());
    expect(rows[0]).toEqual([
      'task',
      'number',
      'title',
      'status',
      'priority',
      'assignee',
      'due date',
      'created',
      'updated',
      'description',
      'labels',
    ]);
    expect(rows.slice(1).map((r) => r[2])).toEqual([
      'Ship it',
      `'=HYPERLINK("http://evil.test","click")`,
      'a, b and "c"',
      "'-1+2",
      "'@SUM",
    ]);
    expect(rows.slice(1).map((r) => Number(r[1]))).toEqual([1, 2, 3, 4, 5]);
    // The status by the name its column has.
    expect(rows.slice(1).map((r) => r[3])).toEqual(['To do', 'To do', 'To do', 'To do', 'To do']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['LAU-1', 'LAU-2', 'LAU-3', 'LAU-4', 'LAU-5']);
    expect(rows[2]?.[9]).toBe('line one\nline two');
    expect(rows.every((r) => r.length === 11)).toBe(true);
    // Labels by name, in one cell, CSV-escaped as any other: only the tasks that carry them.
    expect(rows.slice(1).map((r) => r[10])).toEqual(['"Quoted", =sum, bug', '', '', '', "'=sum, bug"]);
  });

  it('answers an outsider 404, as if the project did not exist', async () => {
    const cast = await scene();
    const res = await exportAs(cast.outsider, cast.project);
    expect(await status(res)).toBe(404);
  });
});
