import { useRevalidator } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { FormMessage } from '~/components/forms.tsx';

/** Pictures shown in markdown (markdown.server.ts shows them from the workspace's file addresses). */
const PICTURE = /^image\/(png|jpeg|gif|webp)$/;

/** A file's markdown: a picture for an image, else a link, both to its address in the workspace. */
export function fileMarkdown(file: { id: string; name: string; contentType: string }, workspaceSlug: string) {
  const words = file.name.replace(/[[\]\\]/g, '\\$&');
  const link = `[${words}](/w/${workspaceSlug}/files/${file.id})`;
  return PICTURE.test(file.contentType) ? `!${link}` : link;
}

/** Uploads a file through the panel's own attach action (attach.server.ts), answered as data. */
async function upload(file: File): Promise<{ id: string; name: string; contentType: string }> {
  const body = new FormData();
  body.set('file', file);
  const url = new URL(window.location.href);
  url.search = '';
  url.searchParams.set('inline', '');
  url.searchParams.set('_data', 'routes/w.$workspace.p.$project.t.$number');
  const response = await fetch(url, { method: 'POST', body, headers: { Accept: 'application/json' } });
  const answer = (await response.json().catch(() => null)) as {
    file?: { id: string; name: string; contentType: string };
    attachError?: string;
  } | null;
  if (!response.ok || !answer?.file)
    throw new Error(answer?.attachError ?? 'The file could not be uploaded.');
  return answer.file;
}

/** Puts `text` in place of `[start, end)` of a text area, as typing would (so forms hear it). */
function replaceRange(area: HTMLTextAreaElement, start: number, end: number, text: string) {
  area.setRangeText(text, start, end, 'end');
  area.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * With JavaScript, on the task panel: a picture pasted into the description or a comment, or files
 * dropped on the panel, are uploaded as the task's attachments; dropped on or pasted into a text
 * area, their markdown goes where the cursor is (a placeholder first, the address once uploaded).
 * Without JavaScript the upload form does the same job.
 */
export function FileDrop({ workspaceSlug }: { workspaceSlug: string }) {
  const anchor = useRef<HTMLSpanElement>(null);
  const { revalidate } = useRevalidator();
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    const panel = anchor.current?.closest('aside');
    if (!panel) return;
    const send = (files: File[], area: HTMLTextAreaElement | null) => {
      if (files.length === 0) return;
      setProblem(null);
      void Promise.all(
        files.map(async (file) => {
          const placeholder = `[Uploading ${file.name.replace(/[[\]]/g, '')}…]`;
          if (area) replaceRange(area, area.selectionStart, area.selectionEnd, placeholder);
          try {
            const text = fileMarkdown(await upload(file), workspaceSlug);
            const at = area ? area.value.indexOf(placeholder) : -1;
            if (area && at >= 0) replaceRange(area, at, at + placeholder.length, text);
          } catch (error) {
            const at = area ? area.value.indexOf(placeholder) : -1;
            if (area && at >= 0) replaceRange(area, at, at + placeholder.length, '');
            setProblem(error instanceof Error ? error.message : String(error));
          }
        }),
      ).then(() => revalidate());
    };
    const textArea = (target: EventTarget | null) =>
      target instanceof HTMLTextAreaElement && panel.contains(target) ? target : null;
    const onPaste = (event: ClipboardEvent) => {
      const area = textArea(event.target);
      const files = [...(event.clipboardData?.files ?? [])];
      if (!area || files.length === 0) return;
      event.preventDefault();
      send(files, area);
    };
    const onDragOver = (event: DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    const onDrop = (event: DragEvent) => {
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length === 0) return;
      event.preventDefault();
      send(files, textArea(event.target));
    };
    panel.addEventListener('paste', onPaste);
    panel.addEventListener('dragover', onDragOver);
    panel.addEventListener('drop', onDrop);
    return () => {
      panel.removeEventListener('paste', onPaste);
      panel.removeEventListener('dragover', onDragOver);
      panel.removeEventListener('drop', onDrop);
    };
  }, [workspaceSlug, revalidate]);
  return (
    <span ref={anchor} className="contents">
      {problem ? <FormMessage>{problem}</FormMessage> : null}
    </span>
  );
}
