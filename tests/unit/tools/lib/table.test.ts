import { expect, test } from 'vitest';
import { markdownTable } from '../../../../tools/lib/table.mjs';

test('a compact Markdown table for a doc, its cells kept on one line and inside their column', () => {
  expect(
    markdownTable(
      ['Key', 'Why'],
      [
        ['a|b', 'two\nlines'],
        ['c', 3],
      ],
    ),
  ).toBe(['| Key | Why |', '|---|---|', '| a\\|b | two lines |', '| c | 3 |'].join('\n'));
});

test('an aligned one for a terminal: every column as wide as its widest cell', () => {
  expect(markdownTable(['fault', 'alert'], [['down', 'MeridianDown']], { aligned: true }).split('\n')).toEqual([
    '| fault | alert        |',
    '|-------|--------------|',
    '| down  | MeridianDown |',
  ]);
});
