import { Link } from '@remix-run/react';
import type { ImportPreview } from '~/utils/import/plan.server.ts';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

function NameList({ names }: { names: string[] }) {
  return <>{names.map((name, i) => `${i > 0 ? ', ' : ''}“${name}”`).join('')}</>;
}

/** What an import will create, and what it cannot import and why (the file's lines or cards). */
export function PreviewDetails({ preview, projectKey }: { preview: ImportPreview; projectKey: string }) {
  return (
    <div className="space-y-5">
      <section aria-labelledby="import-summary" className="space-y-2 text-sm">
        <h2 id="import-summary" className="text-base font-semibold">
          What will be created
        </h2>
        <p>
          From {preview.source === 'Trello' ? 'the Trello board' : 'the CSV file'}{' '}
          {preview.fileName ? <strong>{preview.fileName}</strong> : null}:{' '}
          {plural(preview.tasks, 'task', 'tasks')} in {projectKey}
          {preview.comments > 0 ? `, with ${plural(preview.comments, 'comment', 'comments')}` : ''}.
        </p>
        <ul className="list-disc space-y-1 pl-5">
          {preview.newStatuses.length > 0 ? (
            <li>
              New statuses: <NameList names={preview.newStatuses} />.
            </li>
          ) : null}
          {preview.mappedStatuses.map((m) => (
            <li key={m.name}>
              The project has no room for another status: tasks of “{m.name}” go to “{m.to}”.
            </li>
          ))}
          {preview.newLabels.length > 0 ? (
            <li>
              New labels: <NameList names={preview.newLabels} />.
            </li>
          ) : null}
          {preview.droppedLabels.length > 0 ? (
            <li>
              The workspace has no room for these labels, left off: <NameList names={preview.droppedLabels} />
              .
            </li>
          ) : null}
          {preview.unassigned.length > 0 ? (
            <li>
              No member here is <NameList names={preview.unassigned} />: their tasks are left unassigned.
            </li>
          ) : null}
          {preview.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      </section>

      {preview.problemCount > 0 ? (
        <section aria-labelledby="import-problems" className="space-y-2">
          <h2 id="import-problems" className="text-base font-semibold text-red-800">
            {plural(preview.problemCount, 'row', 'rows')} cannot be imported
          </h2>
          <p className="text-sm text-slate-600">
            These are left out. To import them too, fix them in the file and upload it again.
          </p>
          <table className="w-full text-left text-sm">
            <thead>
              <tr>
                <th scope="col" className="py-1 pr-3">
                  Where
                </th>
                <th scope="col" className="py-1">
                  Why not
                </th>
              </tr>
            </thead>
            <tbody>
              {preview.problems.map((p, i) => (
                <tr key={i} className="border-t border-slate-200 align-top">
                  <td className="py-1 pr-3 whitespace-nowrap">{p.where}</td>
                  <td className="py-1">{p.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}

      {preview.first.length > 0 ? (
        <section aria-labelledby="import-first" className="space-y-2">
          <h2 id="import-first" className="text-base font-semibold">
            {preview.tasks > preview.first.length ? `The first ${preview.first.length} tasks` : 'The tasks'}
          </h2>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead>
                <tr>
                  <th scope="col" className="py-1 pr-3">
                    From
                  </th>
                  <th scope="col" className="py-1 pr-3">
                    Title
                  </th>
                  <th scope="col" className="py-1 pr-3">
                    Status
                  </th>
                  <th scope="col" className="py-1 pr-3">
                    Assignee
                  </th>
                  <th scope="col" className="py-1 pr-3">
                    Due
                  </th>
                  <th scope="col" className="py-1">
                    Labels
                  </th>
                </tr>
              </thead>
              <tbody>
                {preview.first.map((row) => (
                  <tr key={row.where} className="border-t border-slate-200 align-top">
                    <td className="py-1 pr-3 whitespace-nowrap">{row.where}</td>
                    <td className="py-1 pr-3">{row.title}</td>
                    <td className="py-1 pr-3">{row.status}</td>
                    <td className="py-1 pr-3">{row.assignee ?? '—'}</td>
                    <td className="py-1 pr-3 whitespace-nowrap">{row.due_date ?? '—'}</td>
                    <td className="py-1">{row.labels.join(', ') || '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
    </div>
  );
}

/** The import pages' heading: the project and the step, with the way back to its settings. */
export function ImportHeading({ title, settingsPath }: { title: string; settingsPath: string }) {
  return (
    <div className="flex items-baseline justify-between gap-3">
      <h1 className="text-xl font-semibold">{title}</h1>
      <Link to={settingsPath} className="text-sm text-slate-600 underline hover:text-slate-900">
        Back to the settings
      </Link>
    </div>
  );
}
