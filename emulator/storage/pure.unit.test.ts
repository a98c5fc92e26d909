// The storage emulator's pure rules, matched to storage-api's: byte ranges, mime allow-lists, bucket
// size limits, and which stored types may be shown inline.
import { describe, expect, it } from 'vitest';
import { isValidBucketName, parseFileSize } from './buckets.ts';
import { checkMimeType } from './incoming.ts';
import { mustBeValidKey } from './objects.ts';
import { parseRange, safeContentType } from './serve.ts';

describe('parseRange', () => {
  it('reads the three forms of a single byte range, clamped to the file', () => {
    expect(parseRange('bytes=0-4', 10)).toEqual({ start: 0, end: 4 });
    expect(parseRange('bytes=5-', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=8-100', 10)).toEqual({ start: 8, end: 9 });
  });

  it('refuses what storage-api refuses with InvalidRange', () => {
    for (const value of ['bytes=10-12', 'bytes=5-2', 'bytes=-', 'bytes=-0', 'items=0-1', 'bytes=0-1,3-4']) {
      expect(() => parseRange(value, 10), value).toThrow(expect.objectContaining({ code: 'InvalidRange' }));
    }
    expect(() => parseRange('bytes=0-0', 0)).toThrow(expect.objectContaining({ code: 'InvalidRange' }));
  });
});

describe('checkMimeType', () => {
  it('matches type and subtype, with * as any subtype', () => {
    expect(() => checkMimeType('image/png', ['image/*'])).not.toThrow();
    expect(() => checkMimeType('application/pdf', ['image/*', 'application/pdf'])).not.toThrow();
    expect(() => checkMimeType('text/plain', ['image/*'])).toThrow('mime type text/plain is not supported');
    expect(() => checkMimeType('imagepng', ['image/*'])).toThrow(
      expect.objectContaining({ statusCode: 415 }),
    );
  });
});

describe('bucket and key rules', () => {
  it('parses decimal size units like storage-api', () => {
    expect(parseFileSize('1KB')).toBe(1000);
    expect(parseFileSize('1.5mb')).toBe(1_500_000);
    expect(parseFileSize('2GB')).toBe(2e9);
    expect(() => parseFileSize('12 MB')).toThrow(expect.objectContaining({ code: 'InvalidRequest' }));
  });

  it('accepts only S3-safe bucket names and object keys', () => {
    expect(isValidBucketName('avatars')).toBe(true);
    expect(isValidBucketName('a/b')).toBe(false);
    expect(isValidBucketName('x'.repeat(101))).toBe(false);
    expect(() => mustBeValidKey('folder/file (1).png')).not.toThrow();
    expect(() => mustBeValidKey('naïve.txt')).toThrow('Invalid key: naïve.txt');
    expect(() => mustBeValidKey('')).toThrow(expect.objectContaining({ code: 'InvalidKey' }));
  });
});

describe('safeContentType', () => {
  it('serves HTML as text and marks every type a browser would execute as active', () => {
    expect(safeContentType('text/html; charset=utf-8')).toEqual({ contentType: 'text/plain', active: true });
    expect(safeContentType('image/svg+xml').active).toBe(true);
    expect(safeContentType('application/xhtml+xml').active).toBe(true);
    expect(safeContentType('text/javascript').active).toBe(true);
    expect(safeContentType('Application/JavaScript').active).toBe(true);
    expect(safeContentType('image/png')).toEqual({ contentType: 'image/png', active: false });
  });

  it('never echoes a type that is not a plain header value', () => {
    expect(safeContentType('text/plain\r\nSet-Cookie: x=1').contentType).toBe('application/octet-stream');
    expect(safeContentType(undefined).contentType).toBe('application/octet-stream');
  });
});
