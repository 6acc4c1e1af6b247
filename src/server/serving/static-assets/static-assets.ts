import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface CompressedAsset {
  brotli: Buffer;
  contentType: string;
}

export interface StaticAssets {
  /** The folder of `/_next/static/` on disk. */
  root: string;
  /** Every file of `.next/static` by URL path (`/_next/static/chunks/x.js`). */
  paths: ReadonlySet<string>;
  /** The brotli copies the build wrote beside its scripts and styles, by the original's URL path. */
  compressed: ReadonlyMap<string, CompressedAsset>;
}

/** What `.next/static` holds (Next's scripts, styles, fonts and media). */
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
  '.json': 'application/json; charset=UTF-8',
  '.map': 'application/json; charset=UTF-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.txt': 'text/plain; charset=UTF-8',
};

/** The Content-Type of a build asset by its name; anything unlisted is plain bytes. */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
}

/** This build's static files, listed and their brotli copies read once at start-up. */
export function loadStaticAssets(dir: string): StaticAssets {
  const staticDir = path.join(dir, '.next', 'static');
  const urlPathOf = (file: string) => `/_next/static/${path.relative(staticDir, file).split(path.sep).join('/')}`;
  const paths = new Set<string>();
  const compressed = new Map<string, CompressedAsset>();
  for (const entry of readdirSync(staticDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.name.endsWith('.br')) {
      paths.add(urlPathOf(file));
      continue;
    }
    // The build writes brotli copies of scripts and styles only (scripts/build-server.mjs).
    const original = file.slice(0, -'.br'.length);
    compressed.set(urlPathOf(original), { brotli: readFileSync(file), contentType: contentTypeOf(original) });
  }
  return { root: staticDir, paths, compressed };
}
