import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StaticAssets } from '../static-assets';

const STATIC_PREFIX = '/_next/static/';

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
 * from its brotli copy when the browser accepts br; anything else is left to Next.
 */
export function serveStaticAsset(req: IncomingMessage, res: ServerResponse, pathname: string, assets: StaticAssets): boolean {
  if (!pathname.startsWith(STATIC_PREFIX)) return false;
  if (!assets.paths.has(pathname) && !assets.paths.has(decoded(pathname))) {
    res.statusCode = 404;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.end(req.method === 'HEAD' ? undefined : 'Not Found\n');
    return true;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const asset = assets.compressed.get(pathname);
  if (!asset || !/\bbr\b/i.test(String(req.headers['accept-encoding'] ?? ''))) return false;
  res.statusCode = 200;
  res.setHeader('Content-Type', asset.contentType);
  res.setHeader('Content-Encoding', 'br');
  res.setHeader('Content-Length', asset.brotli.length);
  // The file name carries its content hash: it never changes.
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.setHeader('Vary', 'Accept-Encoding');
  res.end(req.method === 'HEAD' ? undefined : asset.brotli);
  return true;
}
