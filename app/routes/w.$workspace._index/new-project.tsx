import { Form, Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { getFormProps, type LastResult } from '~/components/schema-form.ts';
import { ProjectKeyField } from '~/components/project-key-field.tsx';
import { ProjectSchema } from '~/utils/workspace-schemas.ts';

export interface CreateForm {
  createKey: string;
  /** The workspace's project keys, which a new key must not repeat. */
  takenKeys: string[];
  /** The action's reply to the last submission, if any. */
  reply: { key?: string; result: LastResult } | undefined;
}

function ProjectForm({ form: { createKey, reply, takenKeys } }: { form: CreateForm }) {
  const [form, fields] = useSchemaForm('new-project', ProjectSchema, reply?.result);
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <Field
        label="Project name"
        field={fields.name}
        type="text"
        hint="A board for one stream of work: a product, a launch, a client."
      />
      <ProjectKeyField field={fields.projectKey} nameId={fields.name.id} taken={takenKeys} />
      <SubmitButton>Create project</SubmitButton>
      {/* Last: the form's spacing falls between the fields that show. */}
      <input type="hidden" name="key" value={reply?.key ?? createKey} />
    </Form>
  );
}

/** "New project": a button that opens the form in place (a disclosure, so it needs no JavaScript). */
export function NewProject({ form }: { form: CreateForm }) {
  return (
    <details className="group relative" open={form.reply ? true : undefined}>
      <summary className="inline-flex cursor-pointer list-none items-center gap-1.5 rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-700 [&::-webkit-details-marker]:hidden">
        <span aria-hidden="true" className="text-base leading-none">
          +
        </span>
        New project
      </summary>
      <div className="absolute left-0 z-20 sm:left-auto sm:right-0 mt-2 w-80 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white p-4 shadow-lg">
        <ProjectForm form={form} />
      </div>
    </details>
  );
}

/** What a workspace without projects shows: what to do first, and the one button that does it. */
export function Welcome({
  workspaceName,
  personal,
  canCreate,
  slug,
  form,
}: {
  workspaceName: string;
  personal: boolean;
  canCreate: boolean;
  slug: string;
  form: CreateForm;
}) {
  return (
    <div className="mx-auto max-w-xl py-6 sm:py-12">
      <p className="text-sm font-medium text-indigo-700">
        {personal ? 'Welcome to Crewboard' : workspaceName}
      </p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">
        {canCreate ? 'Start with your first project' : 'No projects here yet'}
      </h1>
      {canCreate ? (
        <>
          <p className="mt-3 text-slate-600">
            A project is a board of tasks that moves from <em>To do</em> to <em>Done</em>. Name one for what
            you are working on now; you can add tasks, teammates and due dates next.
          </p>
          <div className="mt-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
            <ProjectForm form={form} />
          </div>
          <ol className="mt-8 grid gap-4 text-sm text-slate-600 sm:grid-cols-3">
            <Step n={1} title="Create a project">
              Each project is its own board.
            </Step>
            <Step n={2} title="Add tasks">
              Give them owners, priorities and due dates.
            </Step>
            <Step n={3} title="Invite your team">
              From{' '}
              <Link to={`/w/${slug}/members`} className="text-indigo-700 underline underline-offset-2">
                Members
              </Link>
              , when you are ready.
            </Step>
          </ol>
        </>
      ) : (
        <p className="mt-3 text-slate-600">
          An admin of {workspaceName} can create the first project. Once there is one, its board, your tasks
          and the team’s activity show up here.
        </p>
      )}
    </div>
  );
}

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <li>
      <span className="flex items-center gap-2 font-medium text-slate-900">
        <span className="inline-flex h-5 w-5 items-center justify-center rounded-full bg-slate-100 text-xs tabular-nums text-slate-600">
          {n}
        </span>
        {title}
      </span>
      <span className="mt-1 block">{children}</span>
    </li>
  );
}
