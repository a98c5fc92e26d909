// One zod schema per form of the workspace pages (workspaces, projects, tasks, comments,
// invitations), used by the action and, once JavaScript loads, by the browser.
import * as z from 'zod/mini';
import { PROJECT_KEY } from './projects.ts';
import { emailField, noControlCharacters } from './schemas.ts';
import { isUuid, Uuid } from './uuid.ts';

const workspaceName = z
  .string({ error: 'Enter a workspace name.' })
  .check(
    z.trim(),
    noControlCharacters(),
    z.minLength(1, 'Enter a workspace name.'),
    z.maxLength(60, 'Use at most 60 characters.'),
  );

export const WorkspaceSchema = z.object({
  name: z
    .string({ error: 'Enter a workspace name.' })
    .check(
      z.trim(),
      noControlCharacters(),
      z.minLength(1, 'Enter a workspace name.'),
      z.maxLength(60, 'Use at most 60 characters.'),
    ),
  slug: z.string({ error: 'Choose an address.' }).check(
    z.trim(),
    z.toLowerCase(),
    z.regex(
      /^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/,
      'Use 3 to 40 lowercase letters, digits or hyphens, not starting or ending with a hyphen.',
    ),
    z.refine((s) => !RESERVED_SLUGS.includes(s), 'That address is reserved. Try another.'),
  ),
});

/**
 * The address a workspace name suggests: its letters and digits, accents dropped, lowercased, runs of
 * anything else made one hyphen, at most 40 characters ("Café Crew!" → "cafe-crew").
 */
export function slugFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 40)
    .replace(/^-+|-+$/g, '');
}

export const RESERVED_SLUGS = [
  'new',
  'settings',
  'members',
  'search',
  'invite',
  'account',
  'admin',
  'api',
  'w',
  'p',
  't',
];

/**
 * The one-time key of a create form (made when the form is rendered): the same key sent twice creates
 * one row. Anything else in the field is ignored rather than refused: the create goes ahead, unkeyed.
 * (Not with z.catch: that pulls all of zod's util module into the chunk every page with a form loads,
 * 3 kB gzip on /login, which has no create form.)
 */
const createKey = z
  .optional(z.string())
  .check(z.overwrite((key) => (key !== undefined && isUuid(key) ? key : undefined)));

export const ProjectSchema = z.object({
  key: createKey,
  name: z
    .string({ error: 'Enter a project name.' })
    .check(
      z.trim(),
      noControlCharacters(),
      z.minLength(1, 'Enter a project name.'),
      z.maxLength(80, 'Use at most 80 characters.'),
    ),
  description: z.optional(
    z.string().check(z.trim(), noControlCharacters(), z.maxLength(2000, 'Use at most 2,000 characters.')),
  ),
  /** The project's key (`WEB`); left blank, the action takes the one the name suggests. */
  projectKey: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.toUpperCase(),
        z.regex(PROJECT_KEY, 'Use 2 to 10 letters or digits, starting with a letter.'),
      ),
  ),
});

/** A status of the task's project, by id (the database refuses any other project's). */
const StatusId = z.string({ error: 'Choose a status.' }).check(z.refine(isUuid, 'Choose a status.'));

export const NewTaskSchema = z.object({
  key: createKey,
  title: z
    .string({ error: 'Enter a title.' })
    .check(
      z.trim(),
      noControlCharacters(),
      z.minLength(1, 'Enter a title.'),
      z.maxLength(200, 'Use at most 200 characters.'),
    ),
  status: StatusId,
});

export const MoveTaskSchema = z.object({
  taskId: Uuid,
  status: StatusId,
  direction: z.optional(z.enum(['up', 'down'])),
  // Drag and drop names the neighbours of the slot it drops into.
  beforeTaskId: z.optional(Uuid),
  afterTaskId: z.optional(Uuid),
});

export const TASK_PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;

export const TaskEditSchema = z.object({
  title: z
    .string({ error: 'Enter a title.' })
    .check(
      z.trim(),
      noControlCharacters(),
      z.minLength(1, 'Enter a title.'),
      z.maxLength(200, 'Use at most 200 characters.'),
    ),
  description: z.optional(
    z.string().check(noControlCharacters(), z.maxLength(20000, 'Use at most 20,000 characters.')),
  ),
  status: StatusId,
  priority: z.enum(TASK_PRIORITIES),
  assignee: z.optional(z.string().check(z.regex(/^$|^[0-9a-f-]{36}$/, 'Choose someone from the list.'))),
  dueDate: z.optional(
    z
      .string()
      .check(
        z.refine(
          (v) =>
            v === '' ||
            (/^\d{4}-\d{2}-\d{2}$/.test(v) &&
              !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
              new Date(`${v}T00:00:00Z`).toISOString().startsWith(v)),
          'Enter a real date.',
        ),
      ),
  ),
});

export const CommentSchema = z.object({
  key: createKey,
  body: z
    .string({ error: 'Write a comment.' })
    .check(
      z.trim(),
      noControlCharacters(),
      z.minLength(1, 'Write a comment.'),
      z.maxLength(5000, 'Use at most 5,000 characters.'),
    ),
});

export const RenameWorkspaceSchema = z.object({ name: workspaceName });

export const WorkspaceSlugSchema = z.object({ slug: WorkspaceSchema.shape.slug });

export const TransferOwnershipSchema = z.object({
  newOwner: z.string({ error: 'Choose the new owner.' }).check(z.refine(isUuid, 'Choose the new owner.')),
});

export const DeleteWorkspaceSchema = z.object({
  confirm: z
    .string({ error: 'Type the workspace name to confirm.' })
    .check(z.trim(), noControlCharacters(), z.minLength(1, 'Type the workspace name to confirm.')),
});

export const InviteSchema = z.object({
  email: emailField,
  role: z.enum(['viewer', 'member', 'admin'], { error: 'Choose a role.' }),
});

/** The project settings' first form: its name and description (the key never changes). */
export const ProjectDetailsSchema = z.object({
  name: ProjectSchema.shape.name,
  description: ProjectSchema.shape.description,
});

export const STATUS_CATEGORY_VALUES = ['backlog', 'unstarted', 'started', 'completed', 'canceled'] as const;

// A short name is one line: tabs and line breaks are refused too.
const LINE_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A short name (a status's, a label's): trimmed, 1 to 30 characters, one line. The database checks
 * the same rules.
 */
export const shortName = (empty: string) =>
  z.string({ error: empty }).check(
    z.trim(),
    z.refine((name) => !LINE_CONTROLS.test(name), {
      message: 'Remove the control characters (such as tabs or line breaks) from the name.',
      abort: true,
    }),
    z.minLength(1, empty),
    z.maxLength(30, 'Use at most 30 characters.'),
  );

/** A status's name and category: adding one, or changing one. */
export const StatusSchema = z.object({
  name: shortName('Enter a name.'),
  category: z.enum(STATUS_CATEGORY_VALUES, { error: 'Choose a category.' }),
});

/** Deleting a status: where its tasks go, if it holds any. */
export const DeleteStatusSchema = z.object({
  moveTo: z.optional(z.string().check(z.refine(isUuid, 'Choose a status for its tasks.'))),
});
