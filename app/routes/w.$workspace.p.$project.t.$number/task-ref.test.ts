import { describe, expect, it } from 'vitest';
import { parseTaskRef } from './task-ref.ts';

describe('parseTaskRef', () => {
  it('reads a task key in any letter case, with spaces around it', () => {
    expect(parseTaskRef('WEB-12')).toEqual({ key: 'WEB', number: 12 });
    expect(parseTaskRef('  web-3 ')).toEqual({ key: 'WEB', number: 3 });
    expect(parseTaskRef('Ops2-140')).toEqual({ key: 'OPS2', number: 140 });
  });

  it('refuses anything that is not one key and one number', () => {
    for (const typed of [
      '',
      'WEB',
      'WEB-',
      '-12',
      'W-12',
      '12-WEB',
      'WEB 12',
      'WEB-12-3',
      'WEB-1.5',
      'ABCDEFGHIJK-1',
    ])
      expect(parseTaskRef(typed), typed).toBeNull();
  });
});
