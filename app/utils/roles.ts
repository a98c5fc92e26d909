// Workspace roles, for server and browser alike (what to show mirrors what RLS allows).

export type WorkspaceRole = 'viewer' | 'member' | 'admin' | 'owner';

const RANK: Record<WorkspaceRole, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

export function atLeast(role: WorkspaceRole, wanted: WorkspaceRole): boolean {
  return RANK[role] >= RANK[wanted];
}
