import { describe, expect, it } from 'vitest';
import { inboxItem, readBefore, readInboxIntent, type NotificationRow } from './inbox.server.ts';

const row = (fields: Partial<NotificationRow>): NotificationRow => ({
  id: 7,
  kind: 'assigned',
  data: { task: { ref: 'WEB-12', title: 'Fix login' } },
  created_at: '2026-11-28T08:00:00Z',
  read_at: null,
  workspace: { slug: 'acme', name: 'Acme' },
  actor: { display_name: 'Ada Lovelace', avatar_path: null },
  ...fields,
});

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe('inboxItem', () => {
  it('says who did what to which task, and links to it', () => {
    const item = inboxItem(row({}));
    expect(`${item.actor} ${item.did} ${item.target}${item.after}`).toBe(
      'Ada Lovelace assigned you WEB-12 Fix login',
    );
    expect(item.href).toBe('/w/acme/p/web/t/12');
    expect(item.read).toBe(false);
  });

  it('says where a task moved, and the workspace someone was added to', () => {
    const moved = inboxItem(
      row({
        kind: 'status_changed',
        data: { task: { ref: 'WEB-12', title: 'Fix login' }, from: 'To do', to: 'Done' },
      }),
    );
    expect(`${moved.did} ${moved.target}${moved.after}`).toBe('moved WEB-12 Fix login from To do to Done');
    const added = inboxItem(
      row({
        kind: 'added_to_workspace',
        data: { workspace: { slug: 'acme', name: 'Acme' }, role: 'member' },
        actor: null,
      }),
    );
    expect(`${added.actor} ${added.did} ${added.target}${added.after}`).toBe(
      'Someone added you to Acme as member',
    );
    expect(added.href).toBe('/w/acme');
  });
});

describe('the inbox forms', () => {
  it('reads each form, and refuses a malformed id or intent with a 400', async () => {
    expect(readInboxIntent(form({ intent: 'archive', id: '42' }))).toEqual({ intent: 'archive', id: '42' });
    expect(readInboxIntent(form({ intent: 'read-all' }))).toEqual({ intent: 'read-all' });
    for (const fields of [
      { intent: 'read', id: 'abc' },
      { intent: 'read', id: '-1' },
      { intent: 'delete', id: '1' },
    ]) {
      let thrown: unknown;
      try {
        readInboxIntent(form(fields));
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(400);
    }
    expect(readBefore(new URL('http://x/inbox?before=9'))).toBe(9);
    expect(() => readBefore(new URL('http://x/inbox?before=x'))).toThrow();
  });
});
