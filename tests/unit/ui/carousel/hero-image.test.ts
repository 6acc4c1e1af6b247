import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/**
 * The SVG as a data: URL inside a double-quoted CSS url(): one line, its attributes in single
 * quotes (a double quote would be escaped in the stylesheet), only what a URL cannot hold escaped.
 */
function dataUrl(svg: string): string {
  return `data:image/svg+xml,${svg
    .trim()
    .replace(/\s*\n\s*/g, '')
    .replace(/"/g, "'")
    .replace(/[%#<>{}]/g, (character) => encodeURIComponent(character))}`;
}

describe('the first slide image the stylesheet draws', () => {
  it('is public/images/slide-speed.svg, as it is', () => {
    const css = read('src/ui/carousel/carousel.module.css');
    const embedded = /\.heroImage\s*\{\s*background:\s*url\("([^"]*)"\)/.exec(css)?.[1];
    expect(embedded).toBe(dataUrl(read('public/images/slide-speed.svg')));
  });

  it('draws no text: the largest paint of every page needs no font, CJK or other', () => {
    expect(read('public/images/slide-speed.svg')).not.toMatch(/<text|font-family/);
  });

  it('has no single quote of its own, which the url() would take for an attribute quote', () => {
    expect(read('public/images/slide-speed.svg')).not.toContain("'");
  });
});
