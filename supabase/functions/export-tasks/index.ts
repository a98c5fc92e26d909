// export-tasks: a project's tasks as CSV, read as the caller (so row-level security decides: any
// member of the workspace, viewers included; anyone else finds no project and gets 404). GET with
// `?project=<id>`. Rows are read in pages by task number and written as they arrive, so a large
// board streams out in constant memory and the first bytes leave before the last page is read.
import { clientAsCaller, json, UUID } from '../_shared/http.ts';
import { csvRow } from '../_shared/csv.ts';

/** PostgREST's max_rows on a hosted project and locally (config.toml [api] max_rows). */
const PAGE = 1000;
// `task` is the task's name as the app shows it (`WEB-12`); `number` stays for spreadsheets that sort.
const HEADER = [
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
];

interface TaskRow {
  number: number;
  title: string;
  /** The task's status, by the name its column has now. */
  status: { name: string } | null;
  priority: string;
  due_date: string | null;
  created_at: string;
  updated_at: string;
  description: string;
  assignee: { display_name: string | null } | null;
  task_labels: Array<{ label: { name: string } | null }>;
}

/** The task's label names by name, in one cell: `bug, design`. */
function labelNames(task: TaskRow): string {
  return task.task_labels
    .flatMap(({ label }) => (label ? [label.name] : []))
    .sort((a, b) => {
      const [x, y] = [a.toLowerCase(), b.toLowerCase()];
      return x < y ? -1 : x > y ? 1 : 0;
    })
    .join(', ');
}

function fileName(project: string): string {
  const slug = project
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${slug || 'project'}-tasks.csv`;
}

Deno.serve(async (req) => {
  if (req.method !== 'GET') return json({ error: 'method_not_allowed' }, 405);
  const projectId = new URL(req.url).searchParams.get('project') ?? '';
  if (!UUID.test(projectId)) return json({ error: 'bad_request', message: 'Give ?project=<id>.' }, 400);

  const supabase = clientAsCaller(req);
  const { data: project, error } = await supabase
    .from('projects')
    .select('id, key, name')
    .eq('id', projectId)
    .maybeSingle();
  if (error) return json({ error: 'backend_unavailable', message: error.message }, 502);
  if (!project) return json({ error: 'not_found', message: 'No such project.' }, 404);

  const encoder = new TextEncoder();
  let after = 0;
  let done = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvRow(HEADER)));
    },
    async pull(controller) {
      if (done) return;
      const { data, error } = await supabase
        .from('tasks')
        .select(
          'number, title, status:project_statuses!tasks_status_fkey(name), priority, due_date, created_at, updated_at, description, assignee:profiles!tasks_assignee_profile_fkey(display_name), task_labels(label:labels(name))',
        )
        .eq('project_id', project.id)
        .gt('number', after)
        .order('number')
        .limit(PAGE)
        .returns<TaskRow[]>();
      if (error) {
        // The header is out: the only way left to say "incomplete" is to break the stream.
        console.error(`export of project ${project.id} failed after task ${after}: ${error.message}`);
        controller.error(new Error(error.message));
        return;
      }
      const chunk = data
        .map((t) =>
          csvRow([
            `${project.key}-${t.number}`,
            t.number,
            t.title,
            t.status?.name ?? '',
            t.priority,
            t.assignee?.display_name ?? '',
            t.due_date,
            t.created_at,
            t.updated_at,
            t.description,
            labelNames(t),
          ]),
        )
        .join('');
      if (chunk) controller.enqueue(encoder.encode(chunk));
      if (data.length < PAGE) {
        done = true;
        controller.close();
      } else {
        after = data[data.length - 1]!.number;
      }
    },
  });
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${fileName(project.name)}"`,
      'Cache-Control': 'no-store',
    },
  });
});
