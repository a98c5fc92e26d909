// Bad input never gives a 5xx. Every form of the app (public and signed in) gets at least 25 kinds of
// bad value in each field and bodies that are not forms at all, posted to the production build as
// remix-serve runs it. Asserted: no response is 500 or above, and a 400 for a field gives back what
// was typed (or, for control characters, says so next to the field).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../emulator/backend.ts';
import { REAL_WORLD_NAMES } from '../../app/utils/files.server.test.ts';
import {
  NO_SIGN_IN_LIMITS,
  createAppScene,
  formHeaders,
  postForm,
  startAppServer,
  type AppServer,
} from '../support/app-server.ts';
import { startPrivateBackend } from '../support/private-backend.ts';

let backend: Backend;
let app: AppServer;
let cookie = '';
let workspace = '';
let spareWorkspace = '';
let projectPath = '';
let taskPath = '';
let commentId = '';

/** The kinds of bad value, each a name and the value sent (undefined: the field is left out). */
const BAD_VALUES: Array<[string, string | undefined]> = [
  ['missing', undefined],
  ['empty', ''],
  ['spaces', '   '],
  ['long', 'a'.repeat(300)],
  ['huge', 'b'.repeat(100_000)],
  ['NUL', 'x\u0000y'],
  ['only NUL', '\u0000'],
  ['bell', 'x\u0007y'],
  ['escape sequence', 'x\u001b[31my'],
  ['DEL', 'x\u007fy'],
  ['line breaks', 'x\r\ny'],
  ['lone surrogate', 'x\ud800y'],
  ['right-to-left override', 'abc\u202edef'],
  ['zero-width', 'a\u200bb'],
  ['emoji', '👩‍👩‍👧‍👦'.repeat(40)],
  ['full-width digits', '１２３４５６'],
  ['HTML', '<script>alert(1)</script>'],
  ['SQL', "' or 1=1 --"],
  ['path', '../../etc/passwd'],
  ['JSON', '{"a":1}'],
  ['negative', '-1'],
  ['huge number', '99999999999999999999'],
  ['float', '1e309'],
  ['not a UUID', 'not-a-uuid'],
  ['almost a UUID', '00000000-0000-0000-0000-00000000000g'],
  ['javascript URL', 'javascript:alert(1)'],
  ['other host', '//evil.example'],
  ['null', 'null'],
];

interface FormCase {
  name: string;
  path: () => string;
  signedIn: boolean;
  fields: Record<string, string>;
  /** Fields to fuzz (default: every field). */
  fuzz?: string[];
  /** Fields shown back to the person on a 400 (passwords never are). */
  echoed?: string[];
}

const FORMS: FormCase[] = [
  {
    name: 'sign in',
    path: () => '/login',
    signedIn: false,
    fields: { email: 'nobody@example.test', password: 'wrong-password', next: '/w', website: '' },
    echoed: ['email'],
  },
  {
    name: 'sign up',
    path: () => '/signup',
    signedIn: false,
    fields: { email: 'new@example.test', password: 'long-enough-1', website: '' },
    echoed: ['email'],
  },
  {
    name: 'send a code',
    path: () => '/login/code',
    signedIn: false,
    fields: { intent: 'send', email: 'nobody@example.test', next: '', website: '' },
    fuzz: ['email', 'next'],
    echoed: ['email'],
  },
  {
    name: 'enter a code',
    path: () => '/login/code',
    signedIn: false,
    fields: { intent: 'verify', email: 'nobody@example.test', code: '123456', next: '', website: '' },
    fuzz: ['email', 'code', 'next'],
  },
  {
    name: 'forgot password',
    path: () => '/forgot-password',
    signedIn: false,
    fields: { email: 'nobody@example.test', website: '' },
    echoed: ['email'],
  },
  {
    name: 'resend confirmation',
    path: () => '/check-email',
    signedIn: false,
    // The address comes from the link to this page, in a hidden field: nothing typed to give back.
    fields: { email: 'nobody@example.test', website: '' },
  },
  {
    name: 'email link',
    path: () => '/auth/confirm',
    signedIn: false,
    fields: { token_hash: 'abc', type: 'signup', next: '/w' },
  },
  {
    name: 'create a workspace',
    path: () => '/w?index',
    signedIn: true,
    fields: { name: 'Fuzzed', slug: 'fuzzed-space' },
    echoed: ['name'],
  },
  {
    name: 'create a project',
    path: () => `/w/${workspace}?index`,
    signedIn: true,
    fields: { name: 'Fuzz project', description: 'About' },
    echoed: ['name', 'description'],
  },
  {
    name: 'create a task',
    path: () => projectPath,
    signedIn: true,
    fields: { intent: 'create', title: 'A task', status: '00000000-0000-4000-8000-000000000000' },
    fuzz: ['title', 'status'],
  },
  {
    name: 'move a task',
    path: () => projectPath,
    signedIn: true,
    fields: {
      taskId: '00000000-0000-4000-8000-000000000000',
      status: '00000000-0000-4000-8000-000000000000',
      direction: 'up',
    },
  },
  {
    name: 'edit a task',
    path: () => taskPath,
    signedIn: true,
    fields: {
      intent: 'save',
      title: 'Edited',
      description: 'Text',
      // No status of this project: refused next to the field, never an error page.
      status: '00000000-0000-4000-8000-000000000000',
      priority: 'high',
      assignee: '',
      dueDate: '2026-12-01',
    },
    fuzz: ['title', 'description', 'status', 'priority', 'assignee', 'dueDate'],
    echoed: ['title', 'description'],
  },
  {
    name: 'add a status',
    path: () => `${projectPath}/settings`,
    signedIn: true,
    fields: { intent: 'add-status', name: 'Fuzz status', category: 'started' },
    fuzz: ['name', 'category'],
  },
  {
    name: 'delete a status',
    path: () => `${projectPath}/settings`,
    signedIn: true,
    fields: {
      intent: 'delete-status',
      statusId: '00000000-0000-4000-8000-000000000000',
      moveTo: '00000000-0000-4000-8000-000000000000',
    },
    fuzz: ['statusId', 'moveTo'],
  },
  {
    name: 'comment',
    path: () => taskPath,
    signedIn: true,
    fields: { intent: 'comment', body: 'Hello' },
    fuzz: ['body'],
    echoed: ['body'],
  },
  {
    name: 'edit a comment',
    path: () => taskPath,
    signedIn: true,
    fields: { intent: 'edit-comment', commentId: '', body: 'Edited comment' },
    fuzz: ['commentId', 'body'],
  },
  {
    name: 'delete a comment',
    path: () => taskPath,
    signedIn: true,
    fields: { intent: 'delete-comment', commentId: '00000000-0000-4000-8000-000000000000' },
    fuzz: ['commentId'],
  },
  {
    name: 'delete an attachment',
    path: () => taskPath,
    signedIn: true,
    fields: { intent: 'delete-attachment', attachmentId: '00000000-0000-4000-8000-000000000000' },
    fuzz: ['attachmentId'],
  },
  {
    name: 'invite',
    path: () => `/w/${workspace}/members`,
    signedIn: true,
    fields: { intent: 'invite', email: 'friend@example.test', role: 'member' },
    fuzz: ['email', 'role'],
    echoed: ['email'],
  },
  {
    name: 'change a role',
    path: () => `/w/${workspace}/members`,
    signedIn: true,
    fields: { intent: 'role', id: '00000000-0000-4000-8000-000000000000', role: 'viewer' },
    fuzz: ['id', 'role'],
  },
  {
    name: 'revoke an invitation',
    path: () => `/w/${workspace}/members`,
    signedIn: true,
    fields: { intent: 'revoke', id: '00000000-0000-4000-8000-000000000000' },
    fuzz: ['id'],
  },
  {
    name: 'resend an invitation',
    path: () => `/w/${workspace}/members`,
    signedIn: true,
    fields: { intent: 'resend', id: '00000000-0000-4000-8000-000000000000' },
    fuzz: ['id'],
  },
  {
    name: 'remove a member',
    path: () => `/w/${workspace}/members`,
    signedIn: true,
    fields: { intent: 'remove', id: '00000000-0000-4000-8000-000000000000' },
    fuzz: ['id'],
  },
  {
    name: 'rename the workspace',
    path: () => `/w/${workspace}/settings`,
    signedIn: true,
    fields: { intent: 'rename', name: 'Renamed' },
    fuzz: ['name'],
    echoed: ['name'],
  },
  {
    name: 'change the address',
    // A workspace of its own: some bad values are good addresses ('null'), and the address moves.
    path: () => `/w/${spareWorkspace}/settings`,
    signedIn: true,
    fields: { intent: 'slug', slug: 'another-address' },
    fuzz: ['slug'],
  },
  {
    name: 'transfer ownership',
    // A workspace of its own: some bad values are good addresses ('null'), and the address moves.
    path: () => `/w/${spareWorkspace}/settings`,
    signedIn: true,
    fields: { intent: 'transfer', newOwner: '00000000-0000-4000-8000-000000000000' },
    fuzz: ['newOwner'],
  },
  {
    name: 'delete the workspace',
    // A workspace of its own: some bad values are good addresses ('null'), and the address moves.
    path: () => `/w/${spareWorkspace}/settings`,
    signedIn: true,
    fields: { intent: 'delete', confirm: 'not the name' },
    fuzz: ['confirm'],
  },
  {
    name: 'display name',
    path: () => '/account?index',
    signedIn: true,
    fields: { displayName: 'Fuzzy' },
    echoed: ['displayName'],
  },
  {
    name: 'change password',
    path: () => '/account/security',
    signedIn: true,
    fields: { intent: 'password', currentPassword: 'wrong-password', password: 'another-long-1' },
    fuzz: ['currentPassword', 'password'],
  },
  {
    name: 'change email',
    path: () => '/account/security',
    signedIn: true,
    fields: { intent: 'email', email: 'other@example.test', currentPassword: 'wrong-password' },
    fuzz: ['email', 'currentPassword'],
    echoed: ['email'],
  },
  {
    name: 'sign out a session',
    path: () => '/account/security',
    signedIn: true,
    fields: { intent: 'session', sessionId: '00000000-0000-4000-8000-000000000000' },
    fuzz: ['sessionId'],
  },
  {
    name: 'delete the account',
    path: () => '/account/security',
    signedIn: true,
    fields: { intent: 'delete-account', currentPassword: 'wrong-password' },
    fuzz: ['currentPassword'],
  },
  {
    name: 'start an authenticator',
    path: () => '/account/security/mfa',
    signedIn: true,
    fields: { intent: 'enrol', name: 'Phone' },
    fuzz: ['name'],
  },
  {
    name: 'confirm an authenticator',
    path: () => '/account/security/mfa',
    signedIn: true,
    fields: {
      intent: 'confirm',
      factorId: '00000000-0000-4000-8000-000000000000',
      uri: 'otpauth://totp/x',
      code: '123456',
    },
    fuzz: ['factorId', 'uri', 'code'],
  },
  {
    name: 'remove an authenticator',
    path: () => '/account/security/mfa',
    signedIn: true,
    fields: { intent: 'remove', factorId: '00000000-0000-4000-8000-000000000000', code: '123456' },
    fuzz: ['factorId', 'code'],
  },
];

const htmlEscape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

async function post(form: FormCase, body: BodyInit, headers: Record<string, string>) {
  const res = await fetch(`${app.url}${form.path()}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...formHeaders(app, headers), ...(form.signedIn ? { Cookie: cookie } : {}) },
    body,
  });
  const location = res.headers.get('location') ?? '';
  // The address of the spare workspace moved: follow it, as the person would.
  const moved = /^\/w\/([^/?]+)\/settings/.exec(location)?.[1];
  if (moved && form.path().startsWith(`/w/${spareWorkspace}/`)) spareWorkspace = moved;
  return { status: res.status, location, body: await res.text() };
}

function encode(fields: Record<string, string | undefined>): string {
  return new URLSearchParams(
    Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined),
  ).toString();
}

beforeAll(async () => {
  backend = await startPrivateBackend('fuzz');
  app = await startAppServer(backend, NO_SIGN_IN_LIMITS);
  const scene = await createAppScene(app, backend, 'fuzz');
  ({ cookie, workspace, projectPath } = scene);
  spareWorkspace = `${workspace}-spare`;
  const madeSpare = await postForm(app, '/w?index', { name: 'Spare', slug: spareWorkspace }, cookie);
  expect(madeSpare.status).toBe(302);
  const madeTask = await postForm(
    app,
    projectPath,
    { intent: 'create', title: 'Fuzz target', status: scene.todo },
    cookie,
  );
  expect(madeTask.status).toBeLessThan(400);
  taskPath = `${projectPath}/t/1`;
  const commented = await postForm(app, taskPath, { intent: 'comment', body: 'First' }, cookie);
  expect(commented.status).toBe(302);
  const page = await (await fetch(`${app.url}${taskPath}`, { headers: { Cookie: cookie } })).text();
  // The comment's id, from its "Delete comment" link (to the confirmation: `…/delete?comment=<id>`).
  commentId = /[?&](?:amp;)?comment=([0-9a-f-]{36})/.exec(page)?.[1] ?? '';
  expect(commentId).not.toBe('');
  const edit = FORMS.find((f) => f.name === 'edit a comment');
  if (edit) edit.fields.commentId = commentId;
}, 180_000);

afterAll(async () => {
  if (process.env.FUZZ_DUMP)
    (await import('node:fs')).writeFileSync(process.env.FUZZ_DUMP, app?.output() ?? '');
  await app?.stop();
  await backend?.stop();
});

describe('every form, every field, every kind of bad value', () => {
  for (const form of FORMS) {
    it(`${form.name}: no 5xx, typed values kept`, async () => {
      const failures: string[] = [];
      for (const field of form.fuzz ?? Object.keys(form.fields)) {
        for (const [kind, value] of BAD_VALUES) {
          const fields = { ...form.fields, [field]: value };
          const res = await post(form, encode(fields), {});
          if (res.status >= 500) {
            failures.push(`${field} = ${kind}: ${res.status} ${res.body.slice(0, 200)}`);
            continue;
          }
          // A signed-in form that sends the person to sign in was never tried: the test would prove nothing.
          if (form.signedIn && res.location.startsWith('/login')) {
            failures.push(`${field} = ${kind}: ${res.status} ${res.location}, the action never ran`);
            continue;
          }
          if (res.status !== 400 || value === undefined || !(form.echoed ?? []).includes(field)) continue;
          if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value)) {
            if (!res.body.includes('Remove the control characters'))
              failures.push(`${field} = ${kind}: 400 without the control-character message`);
          } else if (value.length <= 1000 && value.trim() !== '' && !/[\ud800-\udfff]/.test(value)) {
            const shown = htmlEscape(value.trim());
            if (!res.body.includes(shown)) failures.push(`${field} = ${kind}: 400 without the typed value`);
          }
        }
      }
      // The page the form lives on is still there: the fuzz was tried against a live workspace.
      if (form.signedIn) {
        const page = await fetch(`${app.url}${form.path()}`, {
          headers: { Cookie: cookie },
          redirect: 'manual',
        });
        expect(page.status).toBe(200);
      }
      expect(failures).toEqual([]);
      // Hundreds of requests each: room for a loaded machine.
    }, 180_000);
  }
});

describe('bodies that are not forms', () => {
  const kinds: Array<[string, Record<string, string>, BodyInit | undefined]> = [
    ['JSON', { 'Content-Type': 'application/json' }, '{"email":"a@b.c"}'],
    ['text/plain', { 'Content-Type': 'text/plain' }, 'email=a@b.c'],
    ['no Content-Type', {}, new Uint8Array([101, 61, 49])],
    ['multipart without a boundary', { 'Content-Type': 'multipart/form-data' }, 'email=a@b.c'],
    [
      'truncated multipart',
      { 'Content-Type': 'multipart/form-data; boundary=XyZ' },
      '--XyZ\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.c\r\n--XyZ\r\nContent-Disp',
    ],
    [
      'multipart with a broken part header',
      { 'Content-Type': 'multipart/form-data; boundary=XyZ' },
      '--XyZ\r\nContent-Disposition: form-data; name=\r\n\r\nvalue\r\n--XyZ--\r\n',
    ],
    [
      'invalid percent-encoding',
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      'email=%E0%A4%A&x=%',
    ],
    [
      'bytes that are not UTF-8',
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      new Uint8Array([0xff, 0xfe, 0x3d, 0xc3]),
    ],
    ['XML', { 'Content-Type': 'application/xml' }, '<email>a@b.c</email>'],
  ];
  const paths = [...new Set(FORMS.map((f) => f.path))];
  it.each(kinds)('%s: every action answers 400 or 415, with a page', async (_kind, headers, body) => {
    const failures: string[] = [];
    for (const pathOf of paths) {
      const form = FORMS.find((f) => f.path === pathOf);
      if (!form) continue;
      const res = await fetch(`${app.url}${pathOf()}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          Origin: app.url,
          'Sec-Fetch-Site': 'same-origin',
          ...(form.signedIn ? { Cookie: cookie } : {}),
          ...headers,
        },
        body,
      });
      const text = await res.text();
      if (res.status >= 500) failures.push(`${pathOf()}: ${res.status} ${text.slice(0, 200)}`);
      else if (res.status !== 400 && res.status !== 415 && res.status !== 413)
        failures.push(`${pathOf()}: ${res.status}, expected 400 or 415`);
      else if (!text.includes('<html')) failures.push(`${pathOf()}: ${res.status} without a page`);
    }
    expect(failures).toEqual([]);
  });
});

/** A multipart body as a browser builds it: the name in UTF-8, with `"`, CR and LF percent-encoded. */
function browserMultipart(field: string, filename: string, type: string, content: Uint8Array) {
  const boundary = `----CrewboardFuzz${Math.random().toString(16).slice(2)}`;
  const encoded = filename.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${encoded}"\r\n` +
      `Content-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, content, tail]), type: `multipart/form-data; boundary=${boundary}` };
}

const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

describe('file names a browser can send', () => {
  const htmlText = (value: string) => htmlEscape(value).replace(/'/g, '&#x27;');

  it.each(REAL_WORLD_NAMES)('attaches %j, shows it and downloads it under its name', async (name) => {
    const { body, type } = browserMultipart('file', name, 'text/plain', Buffer.from(`contents of ${name}`));
    const res = await fetch(`${app.url}${taskPath}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...formHeaders(app, { 'Content-Type': type }), Cookie: cookie },
      body,
    });
    expect(res.status, await res.text()).toBe(302);
    const page = await (await fetch(`${app.url}${taskPath}`, { headers: { Cookie: cookie } })).text();
    // The name as the person chose it (the browser's %22 for a quote is undone), less any folders.
    const sent = name.split(/[\\/]/).pop() ?? '';
    const shown = sent
      .replace(/[\u0000-\u001f]/g, '')
      .trim()
      .slice(0, 150);
    const links = [...page.matchAll(/href="(\/w\/[^"]+\/files\/[0-9a-f-]{36})"[^>]*>([^<]*)</g)];
    const link = links.find(([, , text]) => (text ?? '').includes(htmlText(shown)));
    expect(link, `no link named ${shown}`).toBeDefined();
    const download = await fetch(`${app.url}${link?.[1] ?? ''}`, {
      headers: { Cookie: cookie },
      redirect: 'manual',
    });
    expect(download.status).toBe(302);
    const file = await fetch(download.headers.get('location') ?? '');
    expect(file.status).toBe(200);
    const disposition = file.headers.get('content-disposition') ?? '';
    expect(disposition.startsWith('attachment')).toBe(true);
    const star = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1] ?? '';
    expect(decodeURIComponent(star).startsWith(shown.slice(0, 100))).toBe(true);
    expect(await file.text()).toBe(`contents of ${name}`);
  });

  it.each(REAL_WORLD_NAMES.slice(0, 12))('takes an avatar named %j', async (name) => {
    const { body, type } = browserMultipart('avatar', name, 'image/png', PNG);
    const res = await fetch(`${app.url}/account?index`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...formHeaders(app, { 'Content-Type': type }), Cookie: cookie },
      body,
    });
    expect(res.status, await res.text()).toBe(302);
  });
});
