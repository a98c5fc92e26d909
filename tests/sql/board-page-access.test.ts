// board_page reads as its owner and checks its caller once (migration 20261124110000): it must answer
// exactly what the caller could read under RLS. This holds it to that. The same function, as it is in
// the database now, is made again as `security invoker` (so every table it reads goes through the
// policies) and both are asked the same questions by every kind of person: each role of a workspace,
// an outsider, the owner of another workspace, a member whose account has a verified factor with
// and without the second step, a session that has ended, and no session. If a policy ever grants
// less than board_page's own check, the two answers differ here.
//
// Since 20261125090100 board_page reads a board at its plain address from private.board_cache. The
// copy cannot see that table (RLS on, no policy, for this test's transaction only), so it builds
// every board from what RLS shows: the kept boards are held to that too.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useDb } from '../support/db.ts';
import { claimsOf, scene, type Scene } from '../support/scene.ts';

const SIGNATURE = 'public.board_page(text, text, jsonb, jsonb)';

const db = useDb('superuser');
let here: Scene;
let there: Scene;
let hereSlug: string;
let thereSlug: string;

beforeAll(async () => {
  [here, there] = await Promise.all([scene(), scene()]);
  [hereSlug, thereSlug] = [here.slug, there.slug];
  // Something in every part of the answer: more cards, a comment, a second project.
  for (const title of ['Write the brief', 'Book the venue', 'Order the cake']) {
    const { error } = await here.member.client
      .from('tasks')
      .insert({ workspace_id: here.ws, project_id: here.project, title, priority: 'high' });
    if (error) throw error;
  }
  const comment = await here.member.client
    .from('comments')
    .insert({ workspace_id: here.ws, task_id: here.task, body: 'On it' });
  if (comment.error) throw comment.error;
  const second = await here.admin.client.from('projects').insert({ workspace_id: here.ws, name: 'Hiring' });
  if (second.error) throw second.error;
});

type Claims = Record<string, unknown> | null;

/**
 * An answer with the sidebar's projects in one order: the function aggregates them in whatever order
 * its plan reads them (the app sorts them), and the two functions' plans may differ.
 */
function inOrder(answer: unknown): unknown {
  const projects = (answer as { membership?: { projects?: Array<{ id: string }> } } | null)?.membership
    ?.projects;
  projects?.sort((a, b) => a.id.localeCompare(b.id));
  return answer;
}

/** Both functions' answers to one question, asked as `claims` (null: no session at all). */
async function bothAnswers(claims: Claims, args: [string, string, string, string]) {
  await db().query('savepoint question');
  try {
    await db().query('set local role authenticated');
    await db().query("select set_config('request.jwt.claims', $1, true)", [
      claims ? JSON.stringify(claims) : '',
    ]);
    const { rows } = await db().query<{ checked: unknown; under_rls: unknown }>(
      `select public.board_page($1, $2, $3::jsonb, $4::jsonb) as checked,
              public.board_page_under_rls($1, $2, $3::jsonb, $4::jsonb) as under_rls`,
      args,
    );
    const row = rows[0] as { checked: unknown; under_rls: unknown };
    return { checked: inOrder(row.checked), under_rls: inOrder(row.under_rls) };
  } finally {
    await db().query('rollback to savepoint question');
  }
}

describe('board_page', () => {
  it('answers every person exactly what RLS lets them read', async () => {
    await db().query('begin');
    try {
      // The function as deployed, made again to run as its caller.
      const { rows } = await db().query<{ def: string }>(
        `select pg_get_functiondef($1::regprocedure) as def`,
        [SIGNATURE],
      );
      const deployed = rows[0]?.def ?? '';
      expect(deployed).toContain('SECURITY DEFINER');
      // Under another name throughout: its parameters are qualified by the function's name, and its
      // variables by a block label of the same name.
      await db().query(
        deployed
          .replaceAll('board_page', 'board_page_under_rls')
          .replace('SECURITY DEFINER', 'SECURITY INVOKER'),
      );
      await db().query(
        'grant execute on function public.board_page_under_rls(text, text, jsonb, jsonb) to authenticated',
      );
      // What the copy reads as its caller, which no role of the API may otherwise: the board's parts
      // (under RLS, as the caller), and the kept boards, which it is not shown.
      await db().query('grant usage on schema private to authenticated');
      await db().query(
        'grant execute on function private.board_content(uuid, uuid, jsonb, jsonb) to authenticated',
      );
      await db().query('grant select on private.board_cache to authenticated');
      await db().query('alter table private.board_cache enable row level security');

      const member = await claimsOf(here.member);
      const people: Array<[string, Claims]> = [
        ['owner', await claimsOf(here.owner)],
        ['admin', await claimsOf(here.admin)],
        ['member', member],
        ['viewer', await claimsOf(here.viewer)],
        ['outsider', await claimsOf(here.outsider)],
        ["another workspace's owner", await claimsOf(there.owner)],
        ['a session that has ended', { ...member, session_id: randomUUID() }],
        ['no session', null],
      ];
      const boards: Array<[string, string]> = [
        [hereSlug, 'lau'],
        [hereSlug, 'LAU'],
        [hereSlug, 'hir'],
        [hereSlug, 'zzz'],
        ['no-such-workspace', 'lau'],
        [thereSlug, 'lau'],
      ];
      const variants: Array<[string, string]> = [
        ['{}', '{}'],
        ['{"todo":"1","backlog":"2"}', '{}'],
        ['{}', '{"priority":"high","q":"the","today":"2026-11-24"}'],
        ['{}', '{"assignee":"me"}'],
      ];

      let asked = 0;
      let found = 0;
      const ask = async (who: string, claims: Claims) => {
        for (const [slug, key] of boards)
          for (const [shown, filters] of variants) {
            const { checked, under_rls } = await bothAnswers(claims, [slug, key, shown, filters]);
            expect(checked, `${who} asking for ${slug}/${key} ${shown} ${filters}`).toEqual(under_rls);
            asked += 1;
            if ((checked as { membership: unknown }).membership !== null) found += 1;
          }
      };
      for (const [who, claims] of people) await ask(who, claims);

      // A verified factor: without the second step the member reads nothing, with it everything.
      await db().query(
        `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at)
         values ($1, $2, 'phone', 'totp', 'verified', now(), now())`,
        [randomUUID(), here.member.id],
      );
      await ask('a member with a factor, first step only', { ...member, aal: 'aal1' });
      const first = await bothAnswers({ ...member, aal: 'aal1' }, [hereSlug, 'lau', '{}', '{}']);
      expect(first.checked).toMatchObject({ membership: null, project: null });
      await ask('a member with a factor, both steps', { ...member, aal: 'aal2' });

      // The questions reached real boards, not only empty answers: here's four roles and its member
      // with both steps, for its four addresses, and the other workspace's owner for theirs.
      expect(asked).toBe(10 * boards.length * variants.length);
      expect(found).toBe((5 * 4 + 1) * variants.length);
    } finally {
      await db().query('rollback');
    }
  }, 60_000);

  it('is not for anyone without a session', async () => {
    const { rows } = await db().query<{ anon: boolean; authenticated: boolean; public: boolean }>(
      `select has_function_privilege('anon', $1, 'execute') as anon,
              has_function_privilege('authenticated', $1, 'execute') as authenticated,
              has_function_privilege('public', $1, 'execute') as public`,
      [SIGNATURE],
    );
    expect(rows[0]).toEqual({ anon: false, authenticated: true, public: false });
  });
});
