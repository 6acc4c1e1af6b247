import type { IncomingMessage, ServerResponse } from 'node:http';
import { POLL_INTERVAL_HEADER } from '@/shared/build-poll';
import { BUILD_MANIFEST_PREFIX, LATEST_BUILD_PATH } from '@/shared/site-paths';
import type { BuildFiles } from './build-files';
import { answerAnyTagMatch } from '@/server/serving/negotiation/negotiation';

function json(res: ServerResponse, req: IncomingMessage, status: number, body: Buffer | string, cacheControl: string): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.setHeader('Cache-Control', cacheControl);
  if (status === 200 && answerAnyTagMatch(req, res)) return;
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', bytes.length);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/**
 * `/builds/latest.json` (never cached: it is how open tabs learn of a new
 * build) and `/builds/meta/<id>.json` (the running build's route manifest,
 * immutable). Both come from memory; any other id, or any other path under
 * /builds/, is a JSON 404. Methods other than GET and HEAD never get here
 * (see allowed-methods.ts).
 */
export function serveBuilds(req: IncomingMessage, res: ServerResponse, pathname: string, files: BuildFiles, pollIntervalMs: number): void {
  if (pathname === LATEST_BUILD_PATH) {
    res.setHeader(POLL_INTERVAL_HEADER, String(pollIntervalMs));
    return json(res, req, 200, files.latest, 'no-cache, no-store, must-revalidate');
  }
  const manifest =
    pathname.startsWith(BUILD_MANIFEST_PREFIX) && pathname.endsWith('.json')
      ? files.manifests.get(pathname.slice(BUILD_MANIFEST_PREFIX.length, -'.json'.length))
      : undefined;
  if (manifest) return json(res, req, 200, manifest, 'public, max-age=31536000, immutable');
  return json(res, req, 404, '{"error":"no such build file"}\n', 'no-store');
}
