// What a parsed file will do to this project: which of its statuses and labels exist and which are
// made (or, past the limits of SPEC section 9, mapped to the first status or left off), whom each
// assignee is, and what the preview page shows. The result is staged in public.task_imports and
// imported by public.import_tasks, which matches statuses and labels by name again.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database, Json } from '~/types/database.ts';
import type { ImportRow, ImportSource, ParsedFile, Problem, ProposedStatus } from './rows.server.ts';

const MAX_STATUSES = 50;
const MAX_LABELS = 200;
/** Rows shown on the preview page; problems listed there. */
const PREVIEW_ROWS = 10;
const PREVIEW_PROBLEMS = 200;

export interface PreviewRow {
  where: string;
  title: string;
  status: string;
  assignee: string | null;
  due_date: string | null;
  labels: string[];
}

export interface ImportPreview {
  source: ImportSource;
  fileName: string;
  tasks: number;
  comments: number;
  first: PreviewRow[];
  newStatuses: string[];
  /** Statuses the project has no room for, and the status their tasks go to instead. */
  mappedStatuses: Array<{ name: string; to: string }>;
  newLabels: string[];
  droppedLabels: string[];
  /** Assignees of the file who are no member here (or several are): their tasks stay unassigned. */
  unassigned: string[];
  problems: Problem[];
  problemCount: number;
  notes: string[];
}

interface PayloadTask {
  ref: string;
  title: string;
  description: string;
  status: string | null;
  priority: string;
  assignee_id: string | null;
  due_date: string | null;
  labels: string[];
  comments: string[];
}

export interface ImportPayload {
  tasks: PayloadTask[];
  statuses: ProposedStatus[];
  labels: Array<{ name: string; color: string }>;
  preview: ImportPreview;
}

export interface ProjectSide {
  workspaceId: string;
  statuses: Array<{ name: string }>;
  labels: Array<{ name: string }>;
  members: Array<{ id: string; name: string }>;
  /** Members by the email addresses the file names (lower case). */
  emails: Map<string, string>;
}

const folded = (name: string) => name.toLowerCase();

/** Whom an assignee cell or a Trello member names: a member's id, or null. */
function assigneeOf(named: string, side: ProjectSide): string | null {
  if (named.includes('@')) return side.emails.get(folded(named)) ?? null;
  const matches = side.members.filter((m) => folded(m.name) === folded(named));
  return matches.length === 1 ? (matches[0]?.id ?? null) : null;
}

export function planImport(file: ParsedFile, fileName: string, side: ProjectSide): ImportPayload {
  const statusNames = new Map(side.statuses.map((s) => [folded(s.name), s.name]));
  const firstStatus = side.statuses[0]?.name ?? null;
  const proposed = new Map(file.statuses.map((s) => [folded(s.name), s]));
  const newStatuses: ProposedStatus[] = [];
  const mappedStatuses: ImportPreview['mappedStatuses'] = [];
  const statusOf = (name: string | null): string | null => {
    if (name === null) return null;
    const known = statusNames.get(folded(name));
    if (known) return known;
    if (side.statuses.length + newStatuses.length < MAX_STATUSES) {
      newStatuses.push({ name, category: proposed.get(folded(name))?.category ?? 'unstarted' });
      statusNames.set(folded(name), name);
      return name;
    }
    mappedStatuses.push({ name, to: firstStatus ?? 'the first status' });
    statusNames.set(folded(name), firstStatus ?? name);
    return firstStatus;
  };
  // A Trello board's lists in the board's order, even those without cards.
  for (const status of file.statuses) statusOf(status.name);

  const labelNames = new Map(side.labels.map((l) => [folded(l.name), l.name]));
  const newLabels: ImportPayload['labels'] = [];
  const droppedLabels = new Set<string>();
  const labelOf = (name: string): string[] => {
    const known = labelNames.get(folded(name));
    if (known) return [known];
    if (side.labels.length + newLabels.length < MAX_LABELS) {
      newLabels.push({ name, color: file.labelColors[folded(name)] ?? 'gray' });
      labelNames.set(folded(name), name);
      return [name];
    }
    droppedLabels.add(name);
    return [];
  };

  const unassigned = new Set<string>();
  const memberName = new Map(side.members.map((m) => [m.id, m.name]));
  const tasks = file.rows.map((row: ImportRow): PayloadTask => {
    const assigneeId = row.assignee === null ? null : assigneeOf(row.assignee, side);
    if (row.assignee !== null && assigneeId === null) unassigned.add(row.assignee);
    return {
      ref: row.where,
      title: row.title,
      description: row.description,
      status: statusOf(row.status),
      priority: row.priority,
      assignee_id: assigneeId,
      due_date: row.due_date,
      labels: row.labels.flatMap(labelOf),
      comments: row.comments,
    };
  });

  return {
    tasks,
    statuses: newStatuses,
    labels: newLabels,
    preview: {
      source: file.source,
      fileName,
      tasks: tasks.length,
      comments: tasks.reduce((sum, t) => sum + t.comments.length, 0),
      first: tasks.slice(0, PREVIEW_ROWS).map((t) => ({
        where: t.ref,
        title: t.title,
        status: t.status ?? firstStatus ?? '',
        assignee: t.assignee_id ? (memberName.get(t.assignee_id) ?? null) : null,
        due_date: t.due_date,
        labels: t.labels,
      })),
      newStatuses: newStatuses.map((s) => s.name),
      mappedStatuses,
      newLabels: newLabels.map((l) => l.name),
      droppedLabels: [...droppedLabels],
      unassigned: [...unassigned].slice(0, 20),
      problems: file.problems.slice(0, PREVIEW_PROBLEMS),
      problemCount: file.problems.length,
      notes: file.notes,
    },
  };
}

/** The project's side of the plan, read as the importer: statuses, labels, members, their emails. */
export async function readProjectSide(
  supabase: SupabaseClient<Database>,
  project: { id: string; workspaceId: string },
  file: ParsedFile,
): Promise<{ side: ProjectSide } | { error: { message: string; code?: string } }> {
  const emails = [
    ...new Set(file.rows.flatMap((r) => (r.assignee?.includes('@') ? [folded(r.assignee)] : []))),
  ];
  const [statuses, labels, members, byEmail] = await Promise.all([
    supabase
      .from('project_statuses')
      .select('name, position, id')
      .eq('project_id', project.id)
      .order('position')
      .order('id'),
    supabase.from('labels').select('name').eq('workspace_id', project.workspaceId),
    supabase
      .from('workspace_members')
      .select('user_id, profile:profiles!workspace_members_profile_fkey(display_name)')
      .eq('workspace_id', project.workspaceId),
    emails.length > 0
      ? supabase.rpc('members_by_email', { workspace_id: project.workspaceId, emails })
      : Promise.resolve({ data: [], error: null }),
  ]);
  const error = statuses.error ?? labels.error ?? members.error ?? byEmail.error;
  if (error) return { error };
  return {
    side: {
      workspaceId: project.workspaceId,
      statuses: statuses.data ?? [],
      labels: labels.data ?? [],
      members: (members.data ?? []).map((m) => ({ id: m.user_id, name: m.profile?.display_name ?? '' })),
      emails: new Map((byEmail.data ?? []).map((row) => [row.email, row.user_id])),
    },
  };
}

/** The payload as the database column takes it. */
export const asJson = (payload: ImportPayload): NonNullable<Json> =>
  JSON.parse(JSON.stringify(payload)) as NonNullable<Json>;
