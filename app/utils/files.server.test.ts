import { describe, expect, it } from 'vitest';
import { displayFileName, storageKeyName } from './files.server.ts';

// Names people really give files, as browsers send them.
export const REAL_WORLD_NAMES = [
  'report (v=2).pdf',
  'say "hi".txt',
  'résumé.pdf',
  '名前.txt',
  'Übersicht März 2026.xlsx',
  'Ελληνικά.docx',
  'отчёт.pdf',
  'مرحبا.png',
  'שלום.txt',
  '😀 smile.png',
  'a;b,c.csv',
  "O'Brien's notes.md",
  'tabs\tand spaces .log',
  '100% done!.txt',
  'C:\\Users\\ada\\Desktop\\plan.pdf',
  '../../etc/passwd',
  '.hidden',
  '#hash & more @ home.zip',
  'percent %20 encoded.txt',
  'x'.repeat(300) + '.pdf',
  'no-extension',
  'dots...in...name.tar.gz',
  'question?mark*.txt',
  '<angle>|pipe.txt',
];

// storage-api's key check (src/storage/limits.ts: isValidKey), as the local storage service applies it.
const STORAGE_KEY = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]*$/;

describe('file names', () => {
  it.each(REAL_WORLD_NAMES)('%j is kept for people and stored under a key storage accepts', (name) => {
    const shown = displayFileName(name);
    const key = storageKeyName(name);
    expect(shown.length).toBeGreaterThan(0);
    expect([...shown].length).toBeLessThanOrEqual(200);
    expect(shown).not.toMatch(/[\\/\u0000-\u001f]/);
    expect(key).toMatch(STORAGE_KEY);
    expect(key).not.toMatch(/^\./);
    expect(key.length).toBeGreaterThan(0);
    expect(key.length).toBeLessThanOrEqual(100);
  });

  it('keeps the name as typed where it can', () => {
    expect(displayFileName('report (v=2).pdf')).toBe('report (v=2).pdf');
    expect(displayFileName('say "hi".txt')).toBe('say "hi".txt');
    expect(displayFileName('名前.txt')).toBe('名前.txt');
    expect(displayFileName('C:\\Users\\ada\\Desktop\\plan.pdf')).toBe('plan.pdf');
    expect(displayFileName('x'.repeat(300) + '.pdf')).toBe('x'.repeat(196) + '.pdf');
  });

  it('stores accented letters without their accents, and the rest as underscores', () => {
    expect(storageKeyName('résumé.pdf')).toBe('resume.pdf');
    expect(storageKeyName('名前.txt')).toBe('file.txt');
    expect(storageKeyName('.hidden')).toBe('hidden');
    expect(storageKeyName('😀 smile.png')).toBe('smile.png');
    expect(storageKeyName('report (v=2).pdf')).toBe('report (v_2).pdf');
  });
});
