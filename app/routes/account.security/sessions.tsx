import { Form, type useLoaderData } from '@remix-run/react';
import { SubmitButton } from '~/components/forms.tsx';
import { Panel } from '~/components/panel.tsx';
import type { loader } from './route.tsx';

type Session = ReturnType<typeof useLoaderData<typeof loader>>['sessions'][number];

/** The devices signed in to this account, each with its own sign-out, and sign-out for all. */
export function Sessions({ sessions }: { sessions: Session[] }) {
  return (
    <Panel title="Sessions">
      <ul className="divide-y divide-slate-200" aria-label="Signed-in devices">
        {sessions.map((s) => (
          <li key={s.id} className="flex items-center justify-between gap-3 py-3 first:pt-0">
            <div>
              <p className="font-medium">
                {s.device}
                {s.current ? (
                  <span className="ml-2 rounded bg-indigo-100 px-1.5 py-0.5 text-xs font-medium text-indigo-800">
                    This device
                  </span>
                ) : null}
              </p>
              <p className="text-sm text-slate-600">
                Last seen {s.lastSeen} · signed in {s.signedIn}
              </p>
            </div>
            {s.current ? null : (
              <Form method="post">
                <input type="hidden" name="sessionId" value={s.id} />
                <button
                  type="submit"
                  name="intent"
                  value="session"
                  className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100"
                >
                  Sign out
                  <span className="sr-only">
                    {' '}
                    {s.device}, last seen {s.lastSeen}
                  </span>
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row">
        <Form method="post" className="flex-1">
          <SubmitButton name="intent" value="others">
            Sign out other devices
          </SubmitButton>
        </Form>
        <Form method="post" className="flex-1">
          <SubmitButton name="intent" value="everywhere">
            Sign out everywhere
          </SubmitButton>
        </Form>
      </div>
    </Panel>
  );
}
