// Deleting a task, a comment or a file asks first. The control is a link to a confirmation page
// (GET), whose form does the delete, so it works without JavaScript; with JavaScript the link opens
// the same question in a modal <dialog> instead (focus moves into it and back, Esc closes it).
import { Form, Link, useLocation } from '@remix-run/react';
import { useId, useRef, type ReactNode } from 'react';
import { useHydrated } from './hydrated.ts';

/** What is being deleted: a task (to the trash), or a comment or file (for good). */
export type Deletion =
  | { kind: 'task'; ref: string }
  | { kind: 'comment'; id: string }
  | { kind: 'file'; id: string; name: string };

/** The question, what it means, and the button that answers yes. */
export function deletionTexts(what: Deletion): { title: string; body: string; confirm: string } {
  switch (what.kind) {
    case 'task':
      return {
        title: `Move ${what.ref} to the trash?`,
        body: 'Admins can restore it from the workspace’s trash for 30 days, with its comments and files. Then it is deleted for good.',
        confirm: 'Delete task',
      };
    case 'comment':
      return {
        title: 'Delete this comment?',
        body: 'The comment is deleted for good. This cannot be undone.',
        confirm: 'Delete comment',
      };
    case 'file':
      return {
        title: `Delete ${what.name}?`,
        body: 'The file is deleted for good. This cannot be undone.',
        confirm: 'Delete file',
      };
  }
}

/** The form a confirmation posts to the task panel's action. */
function deletionFields(what: Deletion): Record<string, string> {
  switch (what.kind) {
    case 'task':
      return { intent: 'delete-task' };
    case 'comment':
      return { intent: 'delete-comment', commentId: what.id };
    case 'file':
      return { intent: 'delete-attachment', attachmentId: what.id };
  }
}

/** The confirmation page's address under a task's panel address. */
export function confirmDeletePath(taskHref: string, what: Deletion, search = ''): string {
  const query = new URLSearchParams(search);
  query.delete('edit');
  if (what.kind !== 'task') query.set(what.kind, what.id);
  const rest = query.toString();
  return `${taskHref.replace(/\/$/, '')}/delete${rest ? `?${rest}` : ''}`;
}

/**
 * The question and its form: in the dialog, and on the confirmation page. `action` is the task
 * panel's address (the dialog's form posts to the page it is on); `cancel` is its way out.
 */
export function ConfirmDeleteForm({
  what,
  action,
  titleId,
  cancel,
}: {
  what: Deletion;
  action?: string;
  titleId: string;
  cancel: ReactNode;
}) {
  const texts = deletionTexts(what);
  const { intent, ...fields } = deletionFields(what);
  return (
    <>
      <h2 id={titleId} className="break-words text-base font-semibold">
        {texts.title}
      </h2>
      <p id={`${titleId}-body`} className="mt-2 text-sm text-slate-700">
        {texts.body}
      </p>
      <Form method="post" action={action} className="mt-4 flex justify-end gap-2">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {cancel}
        <button
          type="submit"
          name="intent"
          value={intent}
          className="rounded-md bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-800"
        >
          {texts.confirm}
        </button>
      </Form>
    </>
  );
}

/**
 * The delete control: a link to the confirmation page, which with JavaScript opens the dialog
 * instead. `label` names it for assistive technology when its text alone is ambiguous.
 */
export function ConfirmDelete({
  what,
  label,
  className,
  children,
}: {
  what: Deletion;
  label?: string;
  className?: string;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  // Shown in the task panel: its address is the task's, and the board's windows (`?todo=150`) stay.
  const { pathname, search } = useLocation();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  return (
    <>
      <Link
        to={confirmDeletePath(pathname, what, search)}
        aria-label={label}
        aria-haspopup={hydrated ? 'dialog' : undefined}
        preventScrollReset
        className={className}
        onClick={(event) => {
          if (!dialog.current) return;
          event.preventDefault();
          dialog.current.showModal();
        }}
      >
        {children}
      </Link>
      {hydrated ? (
        <dialog
          ref={dialog}
          aria-labelledby={titleId}
          aria-describedby={`${titleId}-body`}
          className="w-full max-w-md rounded-lg bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/40"
          // The form's post ends the question, whatever it answers.
          onSubmit={() => dialog.current?.close()}
        >
          <ConfirmDeleteForm
            what={what}
            titleId={titleId}
            cancel={
              <button
                type="button"
                autoFocus
                onClick={() => dialog.current?.close()}
                className="rounded-md px-3 py-1.5 text-sm font-medium hover:bg-slate-100"
              >
                Cancel
              </button>
            }
          />
        </dialog>
      ) : null}
    </>
  );
}
