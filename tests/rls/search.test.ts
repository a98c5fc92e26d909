// search_tasks (SPEC: Search), as each person calls it through supabase-js: prefix matching on every
// word, titles before descriptions before comments, a task's key first, the filters, marked
// snippets, and nothing of a workspace the caller is not a member of.
import { beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '../support/backend.ts';
import { scene, type Scene } from '../support/scene.ts';

interface Row {
  id: string;
  project_key: string;
  number: number;
  title: string;
  status_name: string;
  status_category: string;
  matched: string;
  title_marked: string;
  snippet: string | null;
}

let s: Scene;
const ids: Record<string, { id: string; number: number }> = {};

async function task(name: string, fields: { title: string; description?: string; comment?: string }) {
  const { data, error } = await s.member.client
    .from('tasks')
    .insert({
      workspace_id: s.ws,
      project_id: s.project,
      title: fields.title,
      description: fields.description,
    })
    .select('id, number')
    .single();
  if (error) throw error;
  ids[name] = data;
  if (fields.comment) {
    const comment = await s.member.client
      .from('comments')
      .insert({ workspace_id: s.ws, task_id: data.id, body: fields.comment });
    if (comment.error) throw comment.error;
  }
}

async function search(args: Record<string, unknown>, as = s.viewer) {
  const { data, error } = await as.client.rpc('search_tasks', { workspace_slug: s.slug, ...args });
  expect(error).toBeNull();
  return data as Row[];
}

const names = (rows: Row[]) => rows.map((r) => Object.keys(ids).find((k) => ids[k]?.id === r.id) ?? r.title);

beforeAll(async () => {
  s = await scene();
  // Made one after another: the most recently changed comes first among equals.
  await task('comment', { title: 'Release notes', comment: 'Blocked by the bootloader, see LAU-3' });
  await task('description', { title: 'Firmware', description: 'Check the <b>boot</b> sequence & "timing"' });
  await task('title', { title: 'Bootloader signing' });
  await task('unrelated', { title: 'Buy coffee', description: 'Beans' });
  await task('split', { title: 'Watchdog reset', description: 'happens on boot' });
}, 60_000);

describe('search_tasks', () => {
  it('matches the beginning of every word: titles, then descriptions, then comments', async () => {
    const rows = await search({ words: ['bootl'] });
    expect(names(rows)).toEqual(['title', 'comment']);
    expect(rows.map((r) => r.matched)).toEqual(['title', 'comment']);
    const boot = await search({ words: ['boot'] });
    expect(names(boot)).toEqual(['title', 'split', 'description', 'comment']);
    expect(boot.map((r) => r.matched)).toEqual(['title', 'description', 'description', 'comment']);
  });

  it('answers a shorter page with the first of the same results (later kinds of match are then not read)', async () => {
    const all = await search({ words: ['boot'] });
    for (const size of [1, 2, 3]) {
      const page = await search({ words: ['boot'], max_results: size });
      expect(page, `a page of ${size}`).toEqual(all.slice(0, size));
    }
  });

  it('needs every word, in the title or the description', async () => {
    expect(names(await search({ words: ['watch', 'boot'] }))).toEqual(['split']);
    expect(await search({ words: ['watch', 'coffee'] })).toEqual([]);
  });

  it('marks the matches between U+0001 and U+0002, with the data’s own text left as it is', async () => {
    const [title, split, description, comment] = await search({ words: ['boot'] });
    expect(title?.title_marked).toBe('\u0001Bootloader\u0002 signing');
    expect(title?.snippet).toBeNull();
    expect(split?.snippet).toBe('happens on \u0001boot\u0002');
    // ts_headline leaves HTML tags out of a fragment; the rest is the data's text, which the page
    // escapes (app/components/marked.test.ts).
    expect(description?.snippet).toBe('Check the  \u0001boot\u0002  sequence & "timing');
    expect(comment?.snippet).toContain('\u0001bootloader\u0002');
  });

  it('puts the task a key names first, in any case and with no project when given a number', async () => {
    const key = { key_project: 'lau', key_number: ids.description!.number };
    const rows = await search({ ...key, words: [`lau-${ids.description!.number}`] });
    expect(names(rows)[0]).toBe('description');
    expect(rows[0]?.matched).toBe('key');
    expect(rows[0]?.project_key).toBe('LAU');
    // The comment that mentions LAU-3 comes after the task itself when LAU-3 is that task.
    const three = await search({ key_project: 'LAU', key_number: 3, words: ['LAU-3'] });
    expect(three[0]).toMatchObject({ number: 3, matched: 'key' });
    expect(names(three)).toContain('comment');
    expect(names(await search({ key_number: ids.title!.number }))).toEqual(['title']);
    expect(await search({ key_project: 'NOPE', key_number: ids.title!.number })).toEqual([]);
  });

  it('applies the filters: status, open or done, assignee, project', async () => {
    const done = (
      await s.admin.client
        .from('project_statuses')
        .select('id')
        .eq('project_id', s.project)
        .eq('category', 'completed')
        .single()
    ).data!;
    await s.member.client
      .from('tasks')
      .update({ status_id: done.id, assignee_id: s.member.id })
      .eq('id', ids.split!.id);
    expect(names(await search({ words: ['boot'], state: 'done' }))).toEqual(['split']);
    expect(names(await search({ words: ['boot'], state: 'open' }))).toEqual([
      'title',
      'description',
      'comment',
    ]);
    expect(names(await search({ words: ['boot'], status: 'DONE' }))).toEqual(['split']);
    expect(names(await search({ words: ['boot'], assignee: 'me' }, s.member))).toEqual(['split']);
    expect(names(await search({ words: ['boot'], assignee: 'none' }))).toEqual([
      'title',
      'description',
      'comment',
    ]);
    expect(await search({ words: ['boot'], project: 'OTHER' })).toEqual([]);
    // Filters alone list what passes them.
    expect(names(await search({ assignee: 'me' }, s.member))).toEqual(['split']);
  });

  it('binds whatever is typed as data: quotes and operators are words, never SQL or query syntax', async () => {
    for (const word of ["'); drop table tasks; --", '!boot | coffee', '&', ':*', '\\', 'boot:*A']) {
      const { error } = await s.viewer.client.rpc('search_tasks', { workspace_slug: s.slug, words: [word] });
      expect(error, word).toBeNull();
    }
    expect(await search({ words: ['!boot | coffee'] })).toEqual([]);
  });

  it('finds nothing of a workspace for an outsider, and refuses the anonymous', async () => {
    expect(await search({ words: ['boot'] }, s.outsider)).toEqual([]);
    expect(await search({ key_number: ids.title!.number }, s.outsider)).toEqual([]);
    const anon = await anonClient().rpc('search_tasks', { workspace_slug: s.slug, words: ['boot'] });
    expect(anon.error?.code).toBe('42501');
  });
});
