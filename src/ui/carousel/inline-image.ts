import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * An SVG from public/ as a `data:` URL, read when the page is prerendered. The first
 * slide's image is the page's largest paint: carried inside the HTML it paints with
 * the first frame, instead of waiting for a request that competes with the scripts
 * (docs/performance.md has the trace). Only the characters a URL cannot hold are escaped
 * (quotes stay `"`: the page data's single-quoted strings carry them as they are).
 */
export function svgDataUrl(publicPath: string): string {
  const file = path.join(/* turbopackIgnore: true */ process.cwd(), 'public', publicPath);
  const svg = readFileSync(file, 'utf8')
    .trim()
    .replace(/\s*\n\s*/g, ' ')
    .replace(/[%#<>{}]/g, (character) => encodeURIComponent(character));
  return `data:image/svg+xml,${svg}`;
}
