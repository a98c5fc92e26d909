import { describe, expect, it } from 'vitest';
import { readFormBody } from './form-body.server.ts';

const multipart = (parts: string) =>
  new Request('http://app.test/', {
    method: 'POST',
    headers: { 'Content-Type': 'multipart/form-data; boundary=XyZ' },
    body: `${parts}--XyZ--\r\n`,
  });
const filePart = (disposition: string, content: string) =>
  `--XyZ\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: text/plain\r\n\r\n${content}\r\n`;

async function status(request: Request): Promise<number> {
  try {
    await readFormBody(request);
    return 200;
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
}

describe('readFormBody', () => {
  it('reads a urlencoded form', async () => {
    const request = new Request('http://app.test/', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'title=Fix+it&note=%C3%A9',
    });
    const { formData } = await readFormBody(request);
    expect(formData.get('title')).toBe('Fix it');
    expect(formData.get('note')).toBe('é');
  });

  it('reports no file when the form was sent with none chosen', async () => {
    const { file } = await readFormBody(multipart(filePart('filename=""', '')), {
      fileField: 'file',
      maxFileBytes: 10,
    });
    expect(file).toBeNull();
  });

  it('keeps a file name as the person chose it: UTF-8, and the quote browsers send as %22', async () => {
    const { file } = await readFormBody(
      multipart(filePart('filename="say %22hi%22 – résumé.txt"', 'hello')),
      {
        fileField: 'file',
        maxFileBytes: 10,
      },
    );
    expect(file?.filename).toBe('say "hi" – résumé.txt');
    expect(new TextDecoder().decode(file?.bytes)).toBe('hello');
  });

  it('marks a file over its limit as too large and keeps none of it', async () => {
    const { file } = await readFormBody(multipart(filePart('filename="big.txt"', 'x'.repeat(20))), {
      fileField: 'file',
      maxFileBytes: 10,
    });
    expect(file?.tooLarge).toBe(true);
    expect(file?.bytes.byteLength).toBe(0);
  });

  it.each([
    ['JSON', { 'Content-Type': 'application/json' }, '{"a":1}', 415],
    ['no Content-Type', {}, new Uint8Array([97]), 415],
    ['multipart without a boundary', { 'Content-Type': 'multipart/form-data' }, 'a=1', 400],
    [
      'truncated multipart',
      { 'Content-Type': 'multipart/form-data; boundary=XyZ' },
      '--XyZ\r\nContent-Disp',
      400,
    ],
  ])('refuses %s with %i', async (_kind, headers, body, expected) => {
    expect(await status(new Request('http://app.test/', { method: 'POST', headers, body }))).toBe(expected);
  });
});
