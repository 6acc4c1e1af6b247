import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { StaticAssets } from './static-assets';
import { answerAnyTagMatch, preferredCoding, type ContentCoding } from '@/server/serving/negotiation/negotiation';
import { answerPlainText } from '@/server/serving/plain-text';
import { serveAssetRange } from './serve-asset-range';

const STATIC_PREFIX = '/_next/static/';
const CODINGS: readonly ContentCoding[] = ['br', 'identity'];

function decoded(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/**
 * Build assets. A file this build does not have (a chunk of another build,
 * during a rollout) is a plain, uncached 404, so the browser sees a real chunk
 * error and recovers, and a cache never keeps the miss. A file it has is sent
 * from its brotli copy when the browser prefers br, and a Range request from
 * the file as it is (see serve-asset-range.ts); anything else is left to Next.
 * Returns false when it left the request to Next, else the answer's promise.
 */
export function serveStaticAsset(req: IncomingMessage, res: ServerResponse, pathname: string, assets: StaticAssets): false | Promise<void> {
  if (!pathname.startsWith(STATIC_PREFIX)) return false;
  const known = assets.paths.has(pathname) ? pathname : assets.paths.has(decoded(pathname)) ? decoded(pathname) : undefined;
  if (!known) {
    answerPlainText(req, res, 404, 'Not Found');
    return Promise.resolve();
  }
  // The file name carries its content hash: it never changes.
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  if (answerAnyTagMatch(req, res)) return Promise.resolve();
  if (req.headers.range !== undefined) {
    // `known` is one of this build's files, listed at start-up: no path from the request reaches the disk.
    return serveAssetRange(req, res, path.join(assets.root, known.slice(STATIC_PREFIX.length)));
  }
  const asset = assets.compressed.get(pathname);
  if (!asset || preferredCoding(req, CODINGS) !== 'br') return false;
  res.statusCode = 200;
  res.setHeader('Content-Type', asset.contentType);
  res.setHeader('Content-Encoding', 'br');
  res.setHeader('Content-Length', asset.brotli.length);
  res.setHeader('Vary', 'Accept-Encoding');
  res.end(req.method === 'HEAD' ? undefined : asset.brotli);
  return Promise.resolve();
}
