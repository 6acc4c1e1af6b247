import type { IncomingMessage, ServerResponse } from 'node:http';
import { BUILD_MANIFEST_PREFIX, LATEST_BUILD_PATH } from '@/shared/site-paths';
import { serveFile } from '@/server/serving/files/serve-file';
import type { BuildFiles } from './build-files';

const NOT_FOUND = Buffer.from('{"error":"no such build file"}\n');

/**
 * `/builds/latest.json` and `/builds/meta/<id>.json` (the running build's route
 * manifest), from memory; any other id, or any other path under /builds/, is a
 * JSON 404. Methods other than GET and HEAD never get here (see allowed-methods.ts).
 */
export function serveBuilds(req: IncomingMessage, res: ServerResponse, pathname: string, files: BuildFiles): void {
  if (pathname === LATEST_BUILD_PATH) return serveFile(req, res, files.latest);
  const manifest =
    pathname.startsWith(BUILD_MANIFEST_PREFIX) && pathname.endsWith('.json')
      ? files.manifests.get(pathname.slice(BUILD_MANIFEST_PREFIX.length, -'.json'.length))
      : undefined;
  if (manifest) return serveFile(req, res, manifest);
  res.statusCode = 404;
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', NOT_FOUND.length);
  res.end(req.method === 'HEAD' ? undefined : NOT_FOUND);
}
