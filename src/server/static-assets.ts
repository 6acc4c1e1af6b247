import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface CompressedAsset {
  brotli: Buffer;
  contentType: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
};

/**
 * The brotli copies the build wrote beside `.next/static` scripts and styles,
 * keyed by URL path (`/_next/static/chunks/x.js`), read once at start-up.
 */
export function loadCompressedAssets(dir: string): Map<string, CompressedAsset> {
  const staticDir = path.join(dir, '.next', 'static');
  const assets = new Map<string, CompressedAsset>();
  for (const entry of readdirSync(staticDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.br')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const original = file.slice(0, -'.br'.length);
    const contentType = CONTENT_TYPES[path.extname(original)];
    if (!contentType) continue;
    const urlPath = `/_next/static/${path.relative(staticDir, original).split(path.sep).join('/')}`;
    assets.set(urlPath, { brotli: readFileSync(file), contentType });
  }
  return assets;
}
