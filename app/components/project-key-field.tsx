import { useEffect, useRef } from 'react';
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
  const followsName = useRef(true);
  const takenKeys = taken.join(',');
  useEffect(() => {
    const name = document.getElementById(nameId);
    const key = document.getElementById(field.id);
    if (!(name instanceof HTMLInputElement) || !(key instanceof HTMLInputElement)) return;
    // A key sent back with an error, or typed before the page was interactive, is the user's own.
    followsName.current = key.value === '';
    const follow = () => {
      if (followsName.current)
        key.value = name.value.trim() ? nextProjectKey(name.value, takenKeys.split(',')) : '';
    };
    const own = () => {
      followsName.current = key.value === '';
      if (followsName.current) follow();
    };
    name.addEventListener('input', follow);
    key.addEventListener('input', own);
    return () => {
      name.removeEventListener('input', follow);
      key.removeEventListener('input', own);
    };
  }, [nameId, field.id, takenKeys]);
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
