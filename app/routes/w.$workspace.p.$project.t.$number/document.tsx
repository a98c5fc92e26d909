import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { FormMessage } from '~/components/forms.tsx';
import { TickableMarkdown } from './checklist.tsx';

/** Markdown the server rendered (app/utils/markdown.server.ts: escaped, links and images checked). */
export function Markdown({ html, className = '' }: { html: string; className?: string }) {
  return <div className={`markdown ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * The task as a document: its title, its facts and its description, with an Edit link to the form
 * (`?edit=task`, a plain link, so it works without JavaScript) for those who may change it.
 */
export function TaskDocument({
  title,
  description,
  checklistItems,
  facts,
  canEdit,
  tickError,
}: {
  title: string;
  /** The description's HTML; empty when there is none. */
  description: string;
  /** How many checklist items the description has: each box a form when `canEdit`. */
  checklistItems: number;
  facts: ReactNode;
  canEdit: boolean;
  /** Why the last tick (without JavaScript) was refused. */
  tickError: string | null;
}) {
  return (
    <article className="mt-3">
      <div className="flex items-start justify-between gap-3">
        <h2 className="text-lg font-semibold">{title}</h2>
        {canEdit ? (
          <Link
            to="?edit=task"
            preventScrollReset
            className="shrink-0 rounded-md border border-slate-300 px-3 py-1 text-sm font-medium hover:bg-slate-100"
          >
            Edit
          </Link>
        ) : null}
      </div>
      {facts}
      {tickError ? <FormMessage>{tickError}</FormMessage> : null}
      {description === '' ? (
        <p className="mt-4 text-sm text-slate-500">No description.</p>
      ) : canEdit && checklistItems > 0 ? (
        <TickableMarkdown html={description} items={checklistItems} className="mt-4" />
      ) : (
        <Markdown html={description} className="mt-4" />
      )}
    </article>
  );
}

/** Today's task form under the document's heading, with the way back to the document. */
export function TaskEditor({ children }: { children: ReactNode }) {
  return (
    <section aria-label="Edit task" className="mt-3">
      {children}
      <Link
        to="?"
        preventScrollReset
        className="mt-2 inline-block text-sm font-medium text-slate-700 hover:underline"
      >
        Cancel
      </Link>
    </section>
  );
}
