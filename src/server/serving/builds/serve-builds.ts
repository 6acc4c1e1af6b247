import type { IncomingMessage, ServerResponse } from 'node:http';
import { BUILD_MANIFEST_PREFIX, CURRENT_BUILD_PATH, LATEST_BUILD_PATH } from '@/shared/site-paths';
import { serveFile } from '@/server/serving/files/serve-file';
import { JSON_TYPE, type BuildFiles } from './build-files';

const NOT_FOUND = Buffer.from('{"error":"no such build file"}\n');
const RELEASE_UNKNOWN = Buffer.from('{"error":"the release\'s stable build is not known yet"}\n');
/** The release view is asked for every few seconds (serving/canary/release-view.ts): a tab may come back soon. */
const RETRY_AFTER_SECONDS = '5';

/**
 * During a canary release, the other live build's route manifests, asked of its pods
 * (serving/canary/peer-files.ts gives them; builds/ knows nothing of releases).
 */
export interface ManifestPeers {
  mayForward(req: IncomingMessage, ofBuild: string | null): ofBuild is string;
  forward(req: IncomingMessage, res: ServerResponse, kind: 'manifest', ofBuild: string): Promise<void>;
}

function answerJson(req: IncomingMessage, res: ServerResponse, status: number, body: Buffer): void {
  res.statusCode = status;
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * `/builds/latest.json` (the build tabs belong on), `/builds/current.json` (this
 * server's build) and `/builds/meta/<id>.json` (the running build's route manifest;
 * during a canary release the other live build's too, from its pods), from memory;
 * any other id, or any other path under /builds/, is a JSON 404. Methods other than
 * GET and HEAD never get here (see allowed-methods.ts).
 */
export function serveBuilds(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  files: BuildFiles,
  peers: ManifestPeers | null,
): Promise<void> | void {
  if (pathname === LATEST_BUILD_PATH) {
    const latest = files.latest();
    if (latest) return serveFile(req, res, latest);
    res.setHeader('Retry-After', RETRY_AFTER_SECONDS);
    return answerJson(req, res, 503, RELEASE_UNKNOWN);
  }
  if (pathname === CURRENT_BUILD_PATH) return serveFile(req, res, files.current);
  const id =
    pathname.startsWith(BUILD_MANIFEST_PREFIX) && pathname.endsWith('.json')
      ? pathname.slice(BUILD_MANIFEST_PREFIX.length, -'.json'.length)
      : null;
  const manifest = id === null ? undefined : files.manifests.get(id);
  if (manifest) return serveFile(req, res, manifest);
  if (peers?.mayForward(req, id)) return peers.forward(req, res, 'manifest', id);
  return answerJson(req, res, 404, NOT_FOUND);
}
