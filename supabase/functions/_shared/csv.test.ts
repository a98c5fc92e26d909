import assert from 'node:assert/strict';
import { csvCell, csvRow } from './csv.ts';

Deno.test('quotes fields with commas, quotes and line breaks, and doubles quotes', () => {
  assert.equal(csvCell('plain'), 'plain');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('two\nlines'), '"two\nlines"');
  assert.equal(csvCell('cr\r\nlf'), '"cr\r\nlf"');
  assert.equal(csvCell(''), '');
  assert.equal(csvCell(null), '');
  assert.equal(csvCell(undefined), '');
  assert.equal(csvCell(12), '12');
});

Deno.test('defuses cells a spreadsheet would run as formulas', () => {
  assert.equal(csvCell('=1+1'), "'=1+1");
  assert.equal(csvCell('+SUM(A1)'), "'+SUM(A1)");
  assert.equal(csvCell('-2'), "'-2");
  assert.equal(csvCell('@cmd'), "'@cmd");
  assert.equal(csvCell('\tTAB'), "'\tTAB");
  assert.equal(csvCell('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`);
  assert.equal(csvCell('a=b'), 'a=b');
  assert.equal(csvCell("'=1+1"), "''=1+1");
  assert.equal(csvCell("'quoted"), "'quoted");
});

Deno.test('ends every row with CRLF', () => {
  assert.equal(csvRow([1, 'a', null, 'b,c']), '1,a,,"b,c"\r\n');
});
