import { useFetcher } from '@remix-run/react';
import { FormMessage } from '~/components/forms.tsx';

/**
 * Watch / Unwatch: watchers hear of the task's comments and moves in their inbox. A form (it works
 * without JavaScript); with JavaScript a fetcher, and the button shows the new state at once.
 */
export function WatchTask({ watching, error }: { watching: boolean; error: string | null }) {
  const fetcher = useFetcher<{ watchError?: string }>();
  const pending = fetcher.formData?.get('intent');
  const shown = pending === 'watch' ? true : pending === 'unwatch' ? false : watching;
  const refused = fetcher.state === 'idle' && fetcher.data?.watchError ? fetcher.data.watchError : error;
  return (
    <fetcher.Form method="post" className="mt-3 flex flex-wrap items-center gap-2 text-sm">
      <p className="text-slate-600">
        {shown
          ? 'You watch this task: its comments and moves come to your inbox.'
          : 'You do not watch this task.'}
      </p>
      <button
        type="submit"
        name="intent"
        value={shown ? 'unwatch' : 'watch'}
        className="rounded-md border border-slate-300 px-2.5 py-1 font-medium hover:bg-slate-100"
      >
        {shown ? 'Unwatch' : 'Watch'}
      </button>
      {refused ? <FormMessage tone="error">{refused}</FormMessage> : null}
    </fetcher.Form>
  );
}
