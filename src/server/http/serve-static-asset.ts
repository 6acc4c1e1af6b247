import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CompressedAsset } from '../static-assets';

/**
 * Answers a build asset from its brotli copy when the browser accepts br;
 * anything else (gzip, identity, unknown files) is left to Next.
 */
export function serveStaticAsset(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  assets: Map<string, CompressedAsset>,
): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const asset = assets.get(pathname);
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
