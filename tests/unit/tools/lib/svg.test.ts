import { expect, test } from 'vitest';
import { element, rect } from '../../../../tools/lib/svg.mjs';

test('positions and sizes are written to a tenth of a pixel', () => {
  expect(rect({ x: 10.04, y: 2 / 3, width: 99.96, height: 12, fill: '#000' })).toBe(
    '<rect x="10" y="0.7" fill="#000" width="100" height="12"/>',
  );
});

test('other numbers keep three significant digits: an opacity of 0.25 stays 0.25', () => {
  expect(rect({ x: 0, y: 0, width: 1, height: 1, fill: '#000', opacity: 0.25 })).toContain(' opacity="0.25"');
  expect(element('text', { 'stroke-width': 1.5, 'fill-opacity': 1 / 3, 'font-size': 1200 })).toBe(
    '<text stroke-width="1.5" fill-opacity="0.333" font-size="1200"/>',
  );
});
