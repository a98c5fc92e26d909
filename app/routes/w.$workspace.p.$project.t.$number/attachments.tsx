import { Form, type useLoaderData } from '@remix-run/react';
import { ConfirmDelete } from '~/components/confirm-delete.tsx';
import { FileField, SubmitButton } from '~/components/forms.tsx';
import { formatBytes } from '~/utils/format.ts';
import type { loader } from './route.tsx';

type Attachment = ReturnType<typeof useLoaderData<typeof loader>>['attachments'][number];

/** The task's files: previews of pictures, links that download, and the upload form. */
export function Attachments({
  attachments,
  workspaceSlug,
  canEdit,
  canDelete,
  error,
}: {
  attachments: Attachment[];
  workspaceSlug: string;
  canEdit: boolean;
  canDelete: (attachment: Attachment) => boolean;
  error: string | null;
}) {
  return (
    <section aria-labelledby="files-title" className="mt-8">
      <h2 id="files-title" className="text-base font-semibold">
        Attachments
      </h2>
      {attachments.length > 0 ? (
        <ul className="mt-3 space-y-3">
          {attachments.map((a) => (
            <li key={a.id} className="rounded-md border border-slate-200 p-3 text-sm">
              {a.preview ? (
                <img src={a.preview} alt={a.name} className="mb-2 max-h-48 rounded object-contain" />
              ) : null}
              <a
                href={`/w/${workspaceSlug}/files/${a.id}`}
                className="break-all font-medium text-indigo-700 hover:underline"
              >
                {a.name}
              </a>
              <p className="text-xs text-slate-500">
                {formatBytes(a.size)} · {a.uploader}
              </p>
              {canDelete(a) ? (
                <ConfirmDelete
                  what={{ kind: 'file', id: a.id, name: a.name }}
                  label={`Delete ${a.name}`}
                  className="mt-1 inline-block text-xs text-red-700 hover:underline"
                >
                  Delete file
                </ConfirmDelete>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-slate-500">No files yet.</p>
      )}
      {canEdit ? (
        // A new form after each upload (the list grows), so the picker never holds the file sent.
        <Form key={attachments.length} method="post" encType="multipart/form-data" className="mt-3 space-y-2">
          <FileField
            id="attachment"
            name="file"
            label="Attach a file"
            hint="Any type, at most 10 MB."
            error={error}
          />
          <SubmitButton>Upload file</SubmitButton>
        </Form>
      ) : null}
    </section>
  );
}
