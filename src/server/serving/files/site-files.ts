import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BUILD_ASSETS_PREFIX } from '@/shared/site-paths';
import { createInMemoryFile, type InMemoryFile } from './in-memory-file';

/** The build's files never change under their hashed names. */
const BUILD_ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Files of public/ keep their names across builds: revalidated on each use, as Next serves them. */
const PUBLIC_FILE_CACHE = 'public, max-age=0';

/** What `.next/static` and `public/` hold: scripts, styles, fonts, icons and images. */
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
  '.json': 'application/json; charset=UTF-8',
  '.map': 'application/json; charset=UTF-8',
  '.webmanifest': 'application/manifest+json; charset=UTF-8',
  '.xml': 'application/xml; charset=UTF-8',
  '.txt': 'text/plain; charset=UTF-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
};

/** The Content-Type of a file by its name; anything unlisted is plain bytes. */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Every file under `root`, by its path relative to it with forward slashes. */
function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/**
 * The files the site serves as they are, by URL path, read once at start-up
 * and kept in memory with their compressed copies: the build's assets
 * (`.next/static`, with the brotli copies src/build/build-server.mjs wrote beside
 * its scripts and styles) and `public/`. No request path ever reaches the disk.
 */
export function loadSiteFiles(dir: string): ReadonlyMap<string, InMemoryFile> {
  const files = new Map<string, InMemoryFile>();
  const staticDir = path.join(dir, '.next', 'static');
  const built = filesUnder(staticDir);
  const brotliCopies = new Set(built.filter((name) => name.endsWith('.br')));
  for (const name of built) {
    if (brotliCopies.has(name)) continue;
    const file = path.join(staticDir, name);
    files.set(
      `${BUILD_ASSETS_PREFIX}${name}`,
      createInMemoryFile({
        body: readFileSync(file),
        contentType: contentTypeOf(name),
        cacheControl: BUILD_ASSET_CACHE,
        lastModified: statSync(file).mtime,
        brotli: brotliCopies.has(`${name}.br`) ? readFileSync(`${file}.br`) : undefined,
      }),
    );
  }
  const publicDir = path.join(dir, 'public');
  for (const name of filesUnder(publicDir)) {
    const file = path.join(publicDir, name);
    files.set(
      `/${name}`,
      createInMemoryFile({
        body: readFileSync(file),
        contentType: contentTypeOf(name),
        cacheControl: PUBLIC_FILE_CACHE,
        lastModified: statSync(file).mtime,
      }),
    );
  }
  return files;
}

/** The file a request path names, as sent or percent-decoded (`/_next/static/chunks/%5Bid%5D.js`). */
export function siteFileOf(files: ReadonlyMap<string, InMemoryFile>, pathname: string): InMemoryFile | undefined {
  const file = files.get(pathname);
  if (file || !pathname.includes('%')) return file;
  try {
    return files.get(decodeURIComponent(pathname));
  } catch {
    return undefined;
  }
}
