import { useCallback } from 'react';
import { useFollowsName } from './follows-name.ts';
import type { FieldMetadata } from './schema-form.ts';
import { Field } from './forms.tsx';
import { nextProjectKey } from '~/utils/projects.ts';

/**
 * The new project form's Key. Without JavaScript it starts blank and the server derives it from the
 * name; with JavaScript it follows the name as it is typed (the first key free in the workspace) until
 * someone types a key of their own.
 */
export function ProjectKeyField({
  field,
  nameId,
  taken,
}: {
  field: FieldMetadata;
  nameId: string;
  taken: string[];
}) {
  const takenKeys = taken.join(',');
  const derive = useCallback((name: string) => nextProjectKey(name, takenKeys.split(',')), [takenKeys]);
  useFollowsName(nameId, field.id, derive);
  return (
    <Field
      label="Key"
      field={field}
      type="text"
      autoComplete="off"
      hint="Names its tasks (KEY-12) and its address: 2 to 10 letters or digits. It can't be changed later; left blank, it comes from the name."
    />
  );
}
