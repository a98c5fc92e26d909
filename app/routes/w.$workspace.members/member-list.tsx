import { Form } from '@remix-run/react';
import { atLeast, type WorkspaceRole } from '~/utils/roles.ts';

export const ROLE_LABEL: Record<WorkspaceRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
};

/** The roles `myRole` may give: the owner up to admin, an admin up to member. */
export const rolesGivenBy = (myRole: WorkspaceRole): WorkspaceRole[] =>
  myRole === 'owner' ? ['viewer', 'member', 'admin'] : ['viewer', 'member'];

/** The workspace's members, each with what the signed-in member may do about them. */
export function MemberList({
  members,
  me,
  myRole,
  personal,
}: {
  members: Array<{ id: string; role: WorkspaceRole; name: string }>;
  me: string;
  myRole: WorkspaceRole;
  personal: boolean;
}) {
  const canManage = (role: WorkspaceRole) =>
    myRole === 'owner'
      ? role !== 'owner'
      : atLeast(myRole, 'admin') && (role === 'viewer' || role === 'member');
  return (
    <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
      {members.map((m) => (
        <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
          <span>
            <span className="font-medium">{m.name}</span>
            {m.id === me ? <span className="text-slate-500"> (you)</span> : null}
          </span>
          <span className="flex items-center gap-2 text-sm">
            {m.id !== me && canManage(m.role) ? (
              <>
                <Form method="post" className="flex items-center gap-1">
                  <input type="hidden" name="id" value={m.id} />
                  <label htmlFor={`role-${m.id}`} className="sr-only">
                    Role of {m.name}
                  </label>
                  <select
                    id={`role-${m.id}`}
                    name="role"
                    defaultValue={m.role}
                    className="rounded border border-slate-300 bg-white px-1 py-0.5 text-slate-900"
                  >
                    {rolesGivenBy(myRole).map((r) => (
                      <option key={r} value={r}>
                        {ROLE_LABEL[r]}
                      </option>
                    ))}
                  </select>
                  <button
                    type="submit"
                    name="intent"
                    value="role"
                    className="rounded border border-slate-300 bg-white px-2 py-0.5 text-slate-900"
                  >
                    Change role
                  </button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="id" value={m.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="remove"
                    className="text-red-700 hover:underline"
                    aria-label={`Remove ${m.name}`}
                  >
                    Remove
                  </button>
                </Form>
              </>
            ) : (
              <span className="text-slate-600">{ROLE_LABEL[m.role]}</span>
            )}
            {m.id === me && m.role !== 'owner' && !personal ? (
              <Form method="post">
                <input type="hidden" name="id" value={m.id} />
                <button type="submit" name="intent" value="leave" className="text-red-700 hover:underline">
                  Leave workspace
                </button>
              </Form>
            ) : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
