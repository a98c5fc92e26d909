import type { Locator } from '@playwright/test';
import { expect, newBoard, openNewTask, test } from './support.ts';

const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Sends `event` (paste or drop) to a text area carrying one file, as the browser would. */
async function sendFile(
  area: Locator,
  event: 'paste' | 'drop',
  file: { name: string; type: string; base64: string },
) {
  await area.evaluate(
    (element, { event, file }) => {
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], file.name, { type: file.type }));
      const sent =
        event === 'paste'
          ? new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true })
          : new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true });
      element.dispatchEvent(sent);
    },
    { event, file },
  );
}

test('an upload empties the picker; a pasted picture and a dropped file go into the markdown', async ({
  page,
  signedIn,
}) => {
  void signedIn;
  const slug = await newBoard(page, 'files');
  const todo = page.getByRole('region', { name: 'To do' });
  await openNewTask(todo);
  await todo.getByLabel('Title').fill('Design the poster');
  await todo.getByRole('button', { name: 'Create task' }).click();
  await todo.getByRole('link', { name: /Design the poster/ }).click();
  const panel = page.getByRole('complementary', { name: 'Task BOA-1' });

  // The picker is emptied after an upload, so a second press cannot send the file again.
  await panel.getByLabel('Attach a file').setInputFiles({
    name: 'brief.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('The brief.'),
  });
  await panel.getByRole('button', { name: 'Upload file' }).click();
  await expect(panel.getByRole('link', { name: 'brief.txt', exact: true })).toBeVisible();
  await expect(panel.getByLabel('Attach a file')).toHaveValue('');

  // A picture pasted into the description: uploaded, and its markdown where the cursor was.
  await panel.getByRole('link', { name: 'Edit', exact: true }).click();
  const description = panel.getByLabel('Description');
  await description.fill('Sketch: ');
  await sendFile(description, 'paste', { name: 'sketch.png', type: 'image/png', base64: PNG_BASE64 });
  const picture = new RegExp(`^Sketch: !\\[sketch\\.png\\]\\(/w/${slug}/files/[0-9a-f-]{36}\\)$`);
  await expect(description).toHaveValue(picture);
  await expect(panel.getByRole('link', { name: 'sketch.png', exact: true })).toBeVisible();
  await panel.getByRole('button', { name: 'Save task' }).click();
  const shown = panel.locator('.markdown img[alt="sketch.png"]');
  await expect(shown).toHaveAttribute('src', new RegExp(`^/w/${slug}/files/[0-9a-f-]{36}$`));
  // The picture loads (its address sends the reader on to a signed link of storage's).
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

  // A file dropped on the comment box: uploaded, and linked in the comment.
  const comment = panel.getByLabel('Comment', { exact: true });
  await comment.fill('Notes: ');
  await sendFile(comment, 'drop', { name: 'notes.txt', type: 'text/plain', base64: btoa('Some notes.') });
  await expect(comment).toHaveValue(
    new RegExp(`^Notes: \\[notes\\.txt\\]\\(/w/${slug}/files/[0-9a-f-]{36}\\)$`),
  );
  await panel.getByRole('button', { name: 'Add comment' }).click();
  await expect(panel.locator('.markdown a', { hasText: 'notes.txt' })).toHaveAttribute(
    'href',
    new RegExp(`^/w/${slug}/files/[0-9a-f-]{36}$`),
  );
});
