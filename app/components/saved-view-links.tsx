import { NavLink } from '@remix-run/react';

/** A project's saved views in the sidebar, under the project: each opens at its own address. */
export function SavedViewLinks({
  views,
}: {
  /** `href`: the view's address with its parameters (saved-views.ts viewPath, on the server). */
  views: Array<{ id: string; name: string; shared: boolean; href: string }>;
}) {
  if (views.length === 0) return null;
  return (
    <ul aria-label="Saved views" className="ml-3 space-y-1 border-l border-slate-200 pl-2">
      {views.map((v) => (
        <li key={v.id}>
          <NavLink to={v.href} className="nav-link text-sm">
            {v.name}
            {v.shared ? <span className="ml-1 text-xs">(shared)</span> : null}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
