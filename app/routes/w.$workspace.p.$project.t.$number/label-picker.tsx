import { useFetcher } from '@remix-run/react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { LabelChip, type ChipLabel } from '~/components/label-chip.tsx';

/**
 * With JavaScript: a button that opens the workspace's labels as checkboxes, filtered by what is
 * typed in the search field above them. Each tick or untick is saved at once; Enter in the field
 * ticks (or unticks) the first label it finds, and Escape closes the picker.
 */
export function LabelPicker({
  taskId,
  workspaceLabels,
  on,
}: {
  taskId: string;
  workspaceLabels: ChipLabel[];
  on: Set<string>;
}) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const wanted = query.trim().toLowerCase();
  const shown = workspaceLabels.filter((l) => l.name.toLowerCase().includes(wanted));
  const close = () => {
    setOpen(false);
    setQuery('');
    button.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (
      event.key === 'Enter' &&
      event.target instanceof HTMLInputElement &&
      event.target.type === 'search'
    ) {
      event.preventDefault();
      list.current?.querySelector<HTMLInputElement>('input[type=checkbox]')?.click();
    }
  };
  return (
    <div className="relative" onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={`${id}-picker`}
        onClick={() => (open ? close() : setOpen(true))}
        className="rounded-md border border-slate-300 px-2 py-1 text-sm font-medium hover:bg-slate-50"
      >
        Edit labels
      </button>
      <div
        id={`${id}-picker`}
        hidden={!open}
        className="absolute right-0 z-20 mt-1 w-64 rounded-md border border-slate-200 bg-white p-2 shadow-lg"
      >
        {open ? (
          <>
            <label htmlFor={`${id}-find`} className="sr-only">
              Find a label
            </label>
            <input
              id={`${id}-find`}
              type="search"
              autoFocus
              autoComplete="off"
              placeholder="Find a label"
              aria-controls={`${id}-options`}
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              className="block w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
            />
            <ul
              ref={list}
              id={`${id}-options`}
              aria-label="Labels to choose"
              className="mt-2 max-h-64 overflow-y-auto"
            >
              {shown.map((label) => (
                <PickerOption key={label.id} taskId={taskId} label={label} on={on.has(label.id)} />
              ))}
            </ul>
            <p role="status" className="mt-1 px-1 text-xs text-slate-600">
              {shown.length === 0
                ? 'No label matches.'
                : `${shown.length} of ${workspaceLabels.length} labels`}
            </p>
          </>
        ) : null}
      </div>
    </div>
  );
}

/** One label's checkbox: ticked as soon as it is clicked, while the change is saved. */
function PickerOption({ taskId, label, on }: { taskId: string; label: ChipLabel; on: boolean }) {
  // A fetcher of its own per label of this task, so changes to several labels are saved side by side.
  const fetcher = useFetcher<{ labelsError: string | null }>({ key: `task-label:${taskId}:${label.id}` });
  // The box follows the click at once (the fetcher's own state arrives a render later), then the
  // change on its way, then the saved labels.
  const [clicked, setClicked] = useState<boolean | null>(null);
  useEffect(() => {
    if (fetcher.state === 'idle') setClicked(null);
  }, [fetcher.state]);
  const pending = fetcher.formData?.get('intent');
  const checked = pending ? pending === 'add-label' : (clicked ?? on);
  const toggle = () => {
    setClicked(!checked);
    fetcher.submit({ intent: checked ? 'remove-label' : 'add-label', labelId: label.id }, { method: 'post' });
  };
  return (
    <li>
      <label className="flex cursor-pointer items-center gap-2 rounded px-1 py-1 hover:bg-slate-50">
        <input type="checkbox" checked={checked} onChange={toggle} />
        <LabelChip label={label} />
      </label>
      {fetcher.state === 'idle' && fetcher.data?.labelsError ? (
        <p role="alert" className="px-1 text-xs text-red-700">
          {fetcher.data.labelsError}
        </p>
      ) : null}
    </li>
  );
}
