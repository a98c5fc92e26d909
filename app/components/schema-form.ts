// The browser half of the app's forms. The action reads a form with Conform's parser and the form's
// zod schema and answers with Conform's reply (`SubmissionResult`); this hook shows that reply and,
// once JavaScript runs, checks the form with the same schema and rule (form-check.ts) before it is
// sent: first on submit, then as the person types. It stands in for `@conform-to/react`'s
// `useForm`, which costs 6.5 kB (gzip) of JavaScript on every page with a form; these forms hold
// only strings, so the state they need is a map of errors. Why, and what was measured: docs/decisions/005-form-state.md.
export type { SubmissionResult } from '@conform-to/dom';
import type { SubmissionResult } from '@conform-to/dom';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type * as z from 'zod/mini';
import { formErrors } from '~/utils/form-check.ts';
import { useHydrated } from './hydrated.ts';

type Errors = Record<string, string[] | null | undefined>;
export type LastResult = SubmissionResult<string[]> | null | undefined;

export interface FormMetadata {
  id: string;
  errorId: string;
  /** The form's own errors (not any one field's). */
  errors?: string[];
  /** Only once JavaScript runs: then the schema speaks instead of the browser's bubbles. */
  noValidate: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}

export interface FieldMetadata {
  id: string;
  name: string;
  errorId: string;
  errors?: string[];
  /** What the field shows on first render: the value sent back by the server, or the default. */
  initialValue?: string;
  required: boolean;
}

const present = (errors: string[] | null | undefined) => (errors && errors.length > 0 ? errors : undefined);

/** The errors of a form as its schema sees it right now, or none. */
function check(form: HTMLFormElement, schema: z.ZodMiniType): Errors {
  return formErrors(new FormData(form), schema);
}

/**
 * A form driven by its zod schema: `[form, fields]`, with one field per key of the schema, named and
 * labelled the way Conform names them (`<form id>-<name>`, errors at `<id>-error`).
 */
export function useSchemaForm<Schema extends z.ZodMiniObject>(
  id: string,
  schema: Schema,
  lastResult: LastResult,
  defaultValue?: Partial<Record<keyof z.input<Schema> & string, string>>,
): [FormMetadata, Record<keyof Schema['shape'] & string, FieldMetadata>] {
  const [errors, setErrors] = useState<Errors>(() => lastResult?.error ?? {});
  // Checked as the person types once they have tried to send it, or the server has answered.
  const [checking, setChecking] = useState(Boolean(lastResult?.error));
  const hydrated = useHydrated();

  // A new answer from the server replaces the errors; `resetForm` (no initial value) empties the form.
  const [reply, setReply] = useState(lastResult);
  if (reply !== lastResult) {
    setReply(lastResult);
    setErrors(lastResult?.error ?? {});
    setChecking(Boolean(lastResult?.error));
  }
  useEffect(() => {
    if (lastResult?.initialValue !== null) return;
    const form = document.getElementById(id);
    if (form instanceof HTMLFormElement) form.reset();
  }, [id, lastResult]);

  const latest = useRef(schema);
  latest.current = schema;
  useEffect(() => {
    const form = document.getElementById(id);
    if (!checking || !(form instanceof HTMLFormElement)) return;
    const recheck = () => setErrors(check(form, latest.current));
    form.addEventListener('input', recheck);
    return () => form.removeEventListener('input', recheck);
  }, [id, checking]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const found = check(form, schema);
    setErrors(found);
    setChecking(true);
    const invalid = Object.keys(found).filter((name) => present(found[name]));
    if (invalid.length === 0) return;
    event.preventDefault();
    const first = [...form.elements].find(
      (element): element is HTMLElement =>
        element instanceof HTMLElement && invalid.includes(element.getAttribute('name') ?? ''),
    );
    first?.focus();
  };

  const values = lastResult?.initialValue ?? defaultValue ?? {};
  const fields = Object.fromEntries(
    Object.entries(schema.shape).map(([name, field]) => {
      const fieldId = `${id}-${name}`;
      const value = (values as Record<string, unknown>)[name];
      const optional = ['optional', 'default'].includes((field as z.ZodMiniType)._zod.def.type);
      return [
        name,
        {
          id: fieldId,
          name,
          errorId: `${fieldId}-error`,
          errors: present(errors[name]),
          initialValue: typeof value === 'string' ? value : undefined,
          required: !optional,
        } satisfies FieldMetadata,
      ];
    }),
  ) as Record<keyof Schema['shape'] & string, FieldMetadata>;

  const form: FormMetadata = {
    id,
    errorId: `${id}-error`,
    errors: present(errors['']),
    noValidate: hydrated,
    onSubmit,
  };
  return [form, fields];
}

type Aria = { 'aria-invalid'?: true; 'aria-describedby'?: string };

/** aria-invalid and aria-describedby: the errors first, then whatever else describes the control. */
function aria(field: FieldMetadata, describedBy?: string): Aria {
  const ids = [field.errors ? field.errorId : undefined, describedBy].filter(Boolean).join(' ');
  return { 'aria-invalid': field.errors ? true : undefined, 'aria-describedby': ids || undefined };
}

export function getFormProps(form: FormMetadata) {
  return {
    id: form.id,
    noValidate: form.noValidate,
    onSubmit: form.onSubmit,
    'aria-describedby': form.errors ? form.errorId : undefined,
  };
}

// Required fields say so to assistive technology, but not with `required`: without JavaScript the
// browser would then refuse an empty field with its own bubble instead of the server's message.
function controlProps(field: FieldMetadata, describedBy?: string) {
  return {
    id: field.id,
    name: field.name,
    'aria-required': field.required || undefined,
    ...aria(field, describedBy),
  };
}

export function getInputProps(field: FieldMetadata, options: { type: string; ariaDescribedBy?: string }) {
  return {
    ...controlProps(field, options.ariaDescribedBy),
    type: options.type,
    defaultValue: field.initialValue,
  };
}

export function getSelectProps(field: FieldMetadata) {
  return { ...controlProps(field), defaultValue: field.initialValue };
}

export function getTextareaProps(field: FieldMetadata) {
  return { ...controlProps(field), defaultValue: field.initialValue };
}
