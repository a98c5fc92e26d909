import { useNavigation } from '@remix-run/react';
import { useEffect, type ReactNode } from 'react';
import { HONEYPOT_FIELD } from '~/utils/honeypot.ts';
import { getInputProps, type FieldMetadata } from './schema-form.ts';

export { useSchemaForm } from './schema-form.ts';

export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors || errors.length === 0) return null;
  return (
    // The alert wraps the list: a role on the <ul> itself would take its items out of a list.
    <div id={id} role="alert">
      <ul className="mt-1 space-y-0.5 text-sm text-red-700">
        {errors.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    </div>
  );
}

/** A labelled input with its errors beside it, wired with aria-invalid and aria-describedby. */
export function Field({
  label,
  field,
  type,
  autoComplete,
  hint,
}: {
  label: string;
  field: FieldMetadata;
  type: 'text' | 'email' | 'password';
  autoComplete?: string;
  hint?: ReactNode;
}) {
  const props = getInputProps(field, { type });
  return (
    <div>
      <label htmlFor={field.id} className="label">
        {label}
      </label>
      <input
        {...props}
        // Passwords are never sent back to the page, whatever the server replied.
        defaultValue={type === 'password' ? undefined : props.defaultValue}
        autoComplete={autoComplete}
        className="input"
      />
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** Shows "…" while its form is being submitted, once JavaScript runs. */
export function SubmitButton({
  children,
  name,
  value,
}: {
  children: ReactNode;
  name?: string;
  value?: string;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === 'submitting' && (name === undefined || navigation.formData?.get(name) === value);
  return (
    <button type="submit" name={name} value={value} disabled={pending} className="button-primary">
      {pending ? 'Working…' : children}
    </button>
  );
}

/** The honeypot: invisible to people (and screen readers), tempting to bots. */
export function Honeypot() {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label htmlFor={HONEYPOT_FIELD}>Leave this field empty</label>
      <input
        id={HONEYPOT_FIELD}
        name={HONEYPOT_FIELD}
        type="text"
        tabIndex={-1}
        autoComplete="off"
        defaultValue=""
      />
    </div>
  );
}

export function FormMessage({ tone = 'error', children }: { tone?: 'error' | 'info'; children: ReactNode }) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-md px-3 py-2 text-sm ${tone === 'error' ? 'bg-red-50 text-red-800' : 'bg-indigo-50 text-indigo-900'}`}
    >
      {children}
    </div>
  );
}

export function AuthCard({
  title,
  children,
  footer,
}: {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-4 py-12">
      <a href="/" className="text-sm font-semibold uppercase tracking-wide text-indigo-600">
        Crewboard
      </a>
      <h1 className="mt-2 text-2xl font-semibold">{title}</h1>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">{children}</div>
      {footer ? <div className="mt-4 text-center text-sm text-slate-600">{footer}</div> : null}
    </main>
  );
}

/**
 * Empties a password input whenever the server answers. Without JavaScript the page is new and the
 * server never echoes passwords; with it, the form stays on the page and would keep what was typed.
 */
export function useClearPasswordOnReply(inputId: string, reply: unknown): void {
  useEffect(() => {
    if (reply === undefined) return;
    const input = document.getElementById(inputId);
    if (input instanceof HTMLInputElement) input.value = '';
  }, [inputId, reply]);
}

/**
 * A file input for a multipart form that works without JavaScript; the server's error shows next to
 * it (a browser never keeps a chosen file across a page load, so there is no value to keep).
 */
export function FileField({
  id,
  name,
  label,
  hint,
  accept,
  error,
}: {
  id: string;
  name: string;
  label: string;
  hint: string;
  accept?: string;
  error: string | null;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="file"
        accept={accept}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        className="mt-1 block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium"
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
        {hint}
      </p>
      {error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
