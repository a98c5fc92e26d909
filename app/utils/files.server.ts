// Uploads: multipart forms read as a stream with a size cap, image types told by the file's bytes,
// and the trash of files whose rows are gone, emptied through the Storage API.
import { supabaseEnv } from './env.server.ts';
import { readFormBody } from './form-body.server.ts';

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

export type Upload =
  | { status: 'file'; file: File; formData: FormData }
  | { status: 'missing' | 'too-large'; formData: FormData };

/**
 * Reads a multipart form whose file field is `field`. A file over `maxBytes` is read to its end and
 * dropped (so the browser still gets an answer, not a reset connection) and reported as too large.
 */
export async function readUpload(request: Request, field: string, maxBytes: number): Promise<Upload> {
  const { formData, file } = await readFormBody(request, { fileField: field, maxFileBytes: maxBytes });
  if (!file) return { status: 'missing', formData };
  if (file.tooLarge) return { status: 'too-large', formData };
  return {
    status: 'file',
    file: new File([file.bytes], file.filename || 'file', { type: file.contentType }),
    formData,
  };
}

const IMAGE_SIGNATURES: Array<{ type: string; test: (b: Uint8Array) => boolean }> = [
  {
    type: 'image/png',
    test: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v),
  },
  { type: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    type: 'image/gif',
    test: (b) =>
      String.fromCharCode(...b.subarray(0, 6)) === 'GIF87a' ||
      String.fromCharCode(...b.subarray(0, 6)) === 'GIF89a',
  },
  {
    type: 'image/webp',
    test: (b) =>
      String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' &&
      String.fromCharCode(...b.subarray(8, 12)) === 'WEBP',
  },
];

/** The image type the bytes say (PNG, JPEG, GIF, WebP), whatever the name or the browser claims. */
export function imageTypeOf(bytes: Uint8Array): string | null {
  return IMAGE_SIGNATURES.find((s) => s.test(bytes))?.type ?? null;
}

/**
 * The type an attachment is stored with: an image type only when the bytes are that image; what the
 * browser said otherwise, unless that is malformed or claims an image the bytes are not.
 */
export function attachmentType(bytes: Uint8Array, claimed: string): string {
  const image = imageTypeOf(bytes);
  if (image) return image;
  const type = claimed.toLowerCase().split(';')[0]?.trim() ?? '';
  if (!/^[a-z0-9][a-z0-9.+-]*\/[a-z0-9][a-z0-9.+-]*$/.test(type) || type.startsWith('image/'))
    return 'application/octet-stream';
  return type;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};
export const extensionOf = (imageType: string) => EXTENSIONS[imageType] ?? 'bin';

/**
 * The name a file is shown and downloaded under: what the browser sent, less any folders and control
 * characters, at most 200 characters (the column's limit) with its extension kept.
 */
export function displayFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return shorten(cleaned || 'file', 200);
}

/**
 * The last segment of a storage key. Storage accepts only a few ASCII characters in keys
 * (storage-api's key check, src/storage/limits.ts), so letters lose their accents, anything else
 * becomes `_`, and the name shown to people stays in the database row (displayFileName).
 */
export function storageKeyName(name: string): string {
  const ascii = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^A-Za-z0-9._() -]/g, '_')
      .replace(/_+/g, '_');
  const shown = displayFileName(name);
  const dot = shown.lastIndexOf('.');
  const extension = dot > 0 ? ascii(shown.slice(dot + 1)).replace(/^[._]+|[._]+$/g, '') : '';
  const stem = ascii(dot > 0 ? shown.slice(0, dot) : shown)
    .replace(/^[.\s_]+|[.\s_]+$/g, '')
    .trim();
  return shorten(`${stem || 'file'}${extension ? `.${extension}` : ''}`, 100);
}

function shorten(name: string, max: number): string {
  const chars = [...name];
  if (chars.length <= max) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
  return chars.slice(0, max - [...ext].length).join('') + ext;
}

export function publicAvatarUrl(path: string | null | undefined): string | null {
  if (!path) return null;
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return `${supabaseEnv().url}/storage/v1/object/public/avatars/${encoded}`;
}
