// profiles: made by trigger at sign-up, readable and editable only by their owner (until workspaces).
import { describe, expect, it } from 'vitest';
import { anonClient } from '../support/backend.ts';
import { person as signedIn } from '../support/scene.ts';

describe('profiles', () => {
  it('are created at sign-up with a display name taken from the email', async () => {
    const ada = await signedIn('ada');
    const { data, error } = await ada.client.from('profiles').select('id, display_name').single();
    expect(error).toBeNull();
    expect(data).toEqual({ id: ada.id, display_name: ada.email.split('@')[0] });
  });

  it('are read and changed only by their owner', async () => {
    const ada = await signedIn('ada');
    const bob = await signedIn('bob');
    const theirs = await ada.client.from('profiles').select('id').eq('id', bob.id);
    expect(theirs.data).toEqual([]);
    const hijack = await ada.client
      .from('profiles')
      .update({ display_name: 'Mallory' })
      .eq('id', bob.id)
      .select();
    expect(hijack.data).toEqual([]);
    const mine = await ada.client
      .from('profiles')
      .update({ display_name: '  Ada L.  ' })
      .eq('id', ada.id)
      .select('display_name')
      .single();
    expect(mine.error).toBeNull();
    expect(mine.data?.display_name).toBe('  Ada L.  ');
    const anon = await anonClient().from('profiles').select('id');
    expect(anon.data).toEqual([]);
  });

  it('refuse an empty or overlong display name, and direct inserts or deletes', async () => {
    const ada = await signedIn('ada');
    const empty = await ada.client.from('profiles').update({ display_name: '   ' }).eq('id', ada.id);
    expect(empty.error?.code).toBe('23514');
    const long = await ada.client
      .from('profiles')
      .update({ display_name: 'x'.repeat(51) })
      .eq('id', ada.id);
    expect(long.error?.code).toBe('23514');
    const insert = await ada.client.from('profiles').insert({ id: ada.id, display_name: 'twin' });
    expect(insert.error?.code).toBe('42501');
    const del = await ada.client.from('profiles').delete().eq('id', ada.id);
    expect(del.error?.code).toBe('42501');
  });
});
