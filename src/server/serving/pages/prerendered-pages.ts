import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

export interface PrerenderedPage {
  identity: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
  /** When the build wrote the page, as an HTTP date (If-Modified-Since compares with it). */
  lastModified: string;
}

interface PrerenderManifest {
  routes: Record<string, { routeType?: string; initialStatus?: number }>;
}

/**
 * The HTML `next build` prerendered for each page route (`/en`, `/ja`, ...),
 * read and compressed once at start-up, keyed by the route's internal path.
 */
export function loadPrerenderedPages(dir: string): Map<string, PrerenderedPage> {
  const manifest = JSON.parse(readFileSync(path.join(dir, '.next', 'prerender-manifest.json'), 'utf8')) as PrerenderManifest;
  const pages = new Map<string, PrerenderedPage>();
  for (const [route, entry] of Object.entries(manifest.routes)) {
    if (entry.routeType !== 'page' || (entry.initialStatus ?? 200) !== 200 || route.startsWith('/_')) continue;
    const file = path.join(dir, '.next', 'server', 'app', `${route}.html`);
    if (!existsSync(file)) continue;
    const identity = readFileSync(file);
    pages.set(route, {
      identity,
      gzip: gzipSync(identity, { level: 9 }),
      brotli: brotliCompressSync(identity),
      etag: `"${createHash('sha1').update(identity).digest('base64url')}"`,
      lastModified: statSync(file).mtime.toUTCString(),
    });
  }
  return pages;
}
