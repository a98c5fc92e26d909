import { Form, useFetcher, useFetchers, useSubmit } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { FormMessage } from '~/components/forms.tsx';
import type { action } from './route.tsx';

/** Each item's ticks run on a fetcher of their own, so a tick never cancels another item's. */
const TICK = 'tick-item-';

/** What a box's value asks (markdown.server.ts): the item and whether it becomes ticked. */
const ASKED = /^(\d+):([01]):/;

/**
 * The description with its checklist boxes as the buttons of one form: without JavaScript each box
 * posts the form (intent `tick`, the box's value), and the page comes back with the item ticked.
 * With JavaScript a box's press goes to a fetcher, and the box shows its new state at once.
 */
export function TickableMarkdown({
  html,
  items,
  className,
}: {
  html: string;
  items: number;
  className: string;
}) {
  const submit = useSubmit();
  const body = useRef<HTMLDivElement>(null);
  // Ticks on their way: the state each box will have once they land.
  const pending = new Map<string, string>();
  for (const f of useFetchers()) {
    const asked = f.key.startsWith(TICK) ? ASKED.exec(String(f.formData?.get('item') ?? '')) : null;
    if (asked) pending.set(asked[1]!, asked[2] === '1' ? 'true' : 'false');
  }
  // The boxes are the server's HTML, not React's: their state is set on them after each render.
  useEffect(() => {
    for (const box of body.current?.querySelectorAll<HTMLButtonElement>('button[data-item]') ?? []) {
      const item = box.dataset.item ?? '';
      box.setAttribute('aria-checked', pending.get(item) ?? box.dataset.checked ?? 'false');
    }
  });
  return (
    <Form
      method="post"
      preventScrollReset
      className={className}
      onSubmit={(event) => {
        const box = (event.nativeEvent as SubmitEvent).submitter;
        if (!(box instanceof HTMLButtonElement) || !box.dataset.item) return;
        event.preventDefault();
        submit(box, { method: 'post', navigate: false, fetcherKey: `${TICK}${box.dataset.item}` });
      }}
    >
      <input type="hidden" name="intent" value="tick" />
      <div ref={body} className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
      {Array.from({ length: items }, (_, i) => (
        <TickRefused key={i} fetcherKey={`${TICK}${i + 1}`} />
      ))}
    </Form>
  );
}

/** Why a tick made with JavaScript was refused (the item changed meanwhile, say). */
function TickRefused({ fetcherKey }: { fetcherKey: string }) {
  const fetcher = useFetcher<typeof action>({ key: fetcherKey });
  const data = fetcher.data;
  if (fetcher.state !== 'idle' || !data || !('tickError' in data)) return null;
  return <FormMessage>{data.tickError}</FormMessage>;
}
