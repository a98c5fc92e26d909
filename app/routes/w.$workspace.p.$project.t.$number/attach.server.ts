import { randomUUID } from 'node:crypto';
import { json } from '@remix-run/node';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { classifyDataError } from '~/utils/data-errors.server.ts';
import {
  ATTACHMENT_MAX_BYTES,
  attachmentType,
  displayFileName,
  readUpload,
  storageKeyName,
} from '~/utils/files.server.ts';
import { fileTooLargeMessage, MESSAGES } from '~/utils/messages.ts';
import type { TaskRequest } from './task.server.ts';

export async function attachFile({ request, context, supabase, member, task, here }: TaskRequest) {
  const workspaceId = member.workspace.id;
  const taskId = task.id;
  const refuse = (attachError: string, status: number) =>
    json({ intent: 'attach' as const, attachError }, { status });
  const upload = await readUpload(request, 'file', ATTACHMENT_MAX_BYTES);
  if (upload.status !== 'file')
    return upload.status === 'missing'
      ? refuse(MESSAGES.file_missing, 400)
      : refuse(fileTooLargeMessage(10), 413);
  const bytes = new Uint8Array(await upload.file.arrayBuffer());
  const name = displayFileName(upload.file.name);
  const id = randomUUID();
  const path = `${workspaceId}/${taskId}/${id}/${storageKeyName(name)}`;
  const contentType = attachmentType(bytes, upload.file.type);
  const stored = await supabase.storage
    .from('attachments')
    .upload(path, bytes, { contentType, upsert: false });
  if (stored.error) {
    const failure = classifyDataError(stored.error);
    return refuse(
      failure.kind === 'forbidden' ? 'You cannot attach files to this task.' : failure.message,
      failure.status,
    );
  }
  const { error } = await supabase.from('attachments').insert({
    id,
    workspace_id: workspaceId,
    task_id: taskId,
    path,
    name,
    size: bytes.byteLength,
    content_type: contentType,
  });
  if (error) {
    // Never half-saved: without its row the file goes too.
    await supabase.storage.from('attachments').remove([path]);
    const failure = classifyDataError(error);
    return refuse(
      failure.kind === 'forbidden' ? 'You cannot attach files to this task.' : failure.message,
      failure.status,
    );
  }
  // Pasted or dropped with JavaScript (file-drop.tsx): the file's address goes into the text.
  if (new URL(request.url).searchParams.has('inline'))
    return json({ intent: 'attach' as const, file: { id, name, contentType } }, { status: 201 });
  return redirectWithSession(here, request, context);
}
