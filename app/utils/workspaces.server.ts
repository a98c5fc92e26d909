import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/types/database.ts';
import { dataErrorResponse } from '~/utils/data-errors.server.ts';

/** The workspaces someone is a member of, with their role there: the personal one first, then by name. */
export async function memberWorkspaces(supabase: SupabaseClient<Database>, userId: string) {
  const { data, error } = await supabase
    .from('workspaces')
    .select('name, slug, is_personal, workspace_members!inner(role)')
    .eq('workspace_members.user_id', userId)
    .order('is_personal', { ascending: false })
    .order('name');
  if (error) throw dataErrorResponse(error);
  return data.map((w) => ({
    name: w.name,
    slug: w.slug,
    personal: w.is_personal,
    role: w.workspace_members[0]?.role ?? 'viewer',
  }));
}
