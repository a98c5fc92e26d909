import { useEffect } from 'react';

/**
 * A field that follows the name typed above it (a project's key, a workspace's address): while it is
 * empty or still what the name suggests it takes `derive(name)` on every keystroke; once someone types
 * in it, it is theirs (emptied, it follows again). A value sent back with an error, or typed before the
 * page was interactive, is the person's own. Without JavaScript the field stays as typed and the server
 * derives what is left empty.
 */
export function useFollowsName(nameId: string, fieldId: string, derive: (name: string) => string) {
  useEffect(() => {
    const name = document.getElementById(nameId);
    const field = document.getElementById(fieldId);
    if (!(name instanceof HTMLInputElement) || !(field instanceof HTMLInputElement)) return;
    let follows = field.value === '';
    const follow = () => {
      if (follows) field.value = name.value.trim() ? derive(name.value) : '';
    };
    const own = () => {
      follows = field.value === '';
      if (follows) follow();
    };
    name.addEventListener('input', follow);
    field.addEventListener('input', own);
    return () => {
      name.removeEventListener('input', follow);
      field.removeEventListener('input', own);
    };
  }, [nameId, fieldId, derive]);
}
