import { Form } from '@remix-run/react';
import { ErrorList, Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { LabelChip, type ChipLabel } from '~/components/label-chip.tsx';
import { getFormProps, getInputProps, getSelectProps, type FieldMetadata } from '~/components/schema-form.ts';
import { colourName, LABEL_COLOURS } from '~/styles/label-colours.ts';
import { LabelSchema } from '~/utils/label-schemas.ts';

type LastResult = Parameters<typeof useSchemaForm>[2];

const CONTROL = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm';

function ColourSelect({
  field,
  label,
  className,
}: {
  field: FieldMetadata;
  label: string;
  className?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={field.id} className={className ? 'sr-only' : 'label'}>
        {label}
      </label>
      <select {...getSelectProps(field)} className={`${CONTROL} ${className ? '' : 'mt-1 block w-full'}`}>
        {LABEL_COLOURS.map((colour) => (
          <option key={colour} value={colour}>
            {colourName(colour)}
          </option>
        ))}
      </select>
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** An admin's form for a new label. */
export function NewLabel({ lastResult }: { lastResult: LastResult }) {
  const [form, fields] = useSchemaForm('new-label', LabelSchema, lastResult, { name: '', color: 'gray' });
  return (
    <section aria-labelledby="new-label-title" className="rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="new-label-title" className="text-base font-semibold">
        New label
      </h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
        {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <Field label="Label name" field={fields.name} type="text" hint="1 to 30 characters, such as “bug”." />
        <ColourSelect field={fields.color} label="Colour" />
        <SubmitButton name="intent" value="create">
          Create label
        </SubmitButton>
      </Form>
    </section>
  );
}

/** One label, with an admin's forms to rename or recolour it and to delete it. */
export function LabelRow({ label, lastResult }: { label: ChipLabel; lastResult: LastResult }) {
  const [form, fields] = useSchemaForm(`label-${label.id}`, LabelSchema, lastResult, {
    name: label.name,
    color: label.color,
  });
  return (
    <li className="space-y-2 px-4 py-3">
      <LabelChip label={label} />
      {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <div className="flex flex-wrap items-start gap-2">
        <Form
          method="post"
          {...getFormProps(form)}
          aria-label={`Edit ${label.name}`}
          className="flex flex-wrap items-start gap-2"
        >
          <input type="hidden" name="id" value={label.id} />
          <div>
            <label htmlFor={fields.name.id} className="sr-only">
              Name of {label.name}
            </label>
            <input {...getInputProps(fields.name, { type: 'text' })} className={CONTROL} />
            <ErrorList id={fields.name.errorId} errors={fields.name.errors} />
          </div>
          <ColourSelect field={fields.color} label={`Colour of ${label.name}`} className="shrink-0" />
          <button
            type="submit"
            name="intent"
            value="update"
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-50"
          >
            Save
          </button>
        </Form>
        <Form method="post">
          <input type="hidden" name="id" value={label.id} />
          <button
            type="submit"
            name="intent"
            value="delete"
            aria-label={`Delete ${label.name}`}
            className="px-1 py-1.5 text-sm text-red-700 hover:underline"
          >
            Delete
          </button>
        </Form>
      </div>
    </li>
  );
}
