import { Form, Link } from '@remix-run/react';
import { ErrorList } from '~/components/forms.tsx';
import type { LinkType, StructureReply, TaskStructure } from './structure.server.ts';

/** The action's answer when it is a refusal of a sub-task or link form. */
export function structureReply(reply: unknown): StructureReply | null {
  return typeof reply === 'object' && reply !== null && 'structureError' in reply
    ? (reply as StructureReply)
    : null;
}

/** The small outlined button of the panel's side forms. */
export const SIDE_BUTTON =
  'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100';

/** Each type's heading, in the order the groups show. */
const GROUPS: Array<[LinkType, string]> = [
  ['blocked_by', 'Blocked by'],
  ['blocks', 'Blocks'],
  ['relates', 'Relates to'],
  ['duplicate_of', 'Duplicate of'],
  ['duplicated_by', 'Duplicated by'],
];

/** What a person may add, as the select offers it. */
const ADDABLE: Array<[string, string]> = [
  ['blocks', 'Blocks'],
  ['blocked_by', 'Blocked by'],
  ['relates', 'Relates to'],
  ['duplicate_of', 'Duplicate of'],
];

/**
 * One text field of the structure forms, wired to its refusal (shown by the form as an ErrorList
 * with the id `<id>-error`), with what was typed kept.
 */
export function TextField({
  id,
  name,
  label,
  typed,
  error,
  placeholder,
  maxLength,
}: {
  id: string;
  name: string;
  label: string;
  typed: string | undefined;
  error: string | null;
  placeholder?: string;
  maxLength?: number;
}) {
  return (
    <div className="min-w-0 flex-1">
      <label htmlFor={id} className="label">
        {label}
      </label>
      <input
        id={id}
        name={name}
        required
        placeholder={placeholder}
        maxLength={maxLength}
        autoComplete="off"
        defaultValue={typed ?? ''}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="input"
      />
    </div>
  );
}

/** A task of the structure lists: its key and title as a link, and its status. */
export function TaskLine({ task }: { task: { ref: string; title: string; href: string; status: string } }) {
  return (
    <>
      <Link to={task.href} className="font-medium text-indigo-700 hover:underline">
        {task.ref}
      </Link>{' '}
      <span className="break-words">{task.title}</span>
      {task.status ? <span className="ml-2 text-xs text-slate-500">{task.status}</span> : null}
    </>
  );
}

/**
 * The task's links to other tasks of the workspace, grouped by type, each with a Remove button; and
 * a form to add one by the other task's key. Plain forms: the same with and without JavaScript.
 */
export function TaskLinks({
  links,
  canEdit,
  reply,
}: {
  links: TaskStructure['links'];
  canEdit: boolean;
  reply: StructureReply | null;
}) {
  const error = reply?.intent === 'add-link' ? reply.structureError : null;
  const removeError = reply?.intent === 'remove-link' ? reply.structureError : null;
  const typed = reply?.intent === 'add-link' ? reply.values : {};
  return (
    <section aria-labelledby="links-title" className="mt-6">
      <h2 id="links-title" className="text-base font-semibold">
        Links
      </h2>
      {links.length === 0 ? <p className="mt-2 text-sm text-slate-600">No links.</p> : null}
      {GROUPS.map(([type, heading]) => {
        const group = links.filter((l) => l.type === type);
        if (group.length === 0) return null;
        return (
          <div key={type} className="mt-2">
            <h3 className="text-sm font-medium text-slate-700">{heading}</h3>
            <ul aria-label={heading} className="mt-1 space-y-1 text-sm">
              {group.map((l) => (
                <li key={l.id} data-link-type={type} className="flex items-baseline justify-between gap-2">
                  <span>
                    <TaskLine task={l} />
                  </span>
                  {canEdit ? (
                    <Form method="post" preventScrollReset>
                      <input type="hidden" name="linkId" value={l.id} />
                      <button
                        type="submit"
                        name="intent"
                        value="remove-link"
                        aria-label={`Remove link: ${heading.toLowerCase()} ${l.ref}`}
                        className="text-xs font-medium text-slate-600 hover:underline"
                      >
                        Remove
                      </button>
                    </Form>
                  ) : null}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
      <ErrorList errors={removeError ? [removeError] : null} />
      {canEdit ? (
        <Form
          method="post"
          preventScrollReset
          className="mt-3 flex flex-wrap items-end gap-2"
          key={links.length}
        >
          <div>
            <label htmlFor="link-type" className="label">
              Link type
            </label>
            <select
              id="link-type"
              name="type"
              defaultValue={typed.type ?? 'blocks'}
              className="mt-1 rounded-md border border-slate-300 bg-white px-2 py-2 text-sm"
            >
              {ADDABLE.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <TextField
            id="link-task"
            name="task"
            label="Task key"
            placeholder="WEB-12"
            typed={typed.task}
            error={error}
          />
          <button type="submit" name="intent" value="add-link" className={SIDE_BUTTON}>
            Add link
          </button>
          <div className="basis-full">
            <ErrorList id="link-task-error" errors={error ? [error] : null} />
          </div>
        </Form>
      ) : null}
    </section>
  );
}
