import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { POLL_INTERVAL_HEADER } from '@/shared/build-poll';
import { createInMemoryFile, type InMemoryFile } from '@/server/serving/files/in-memory-file';

export interface BuildFiles {
  /** builds/current.json: this server's build, as the build wrote it. */
  current: InMemoryFile;
  /**
   * builds/latest.json: the build open tabs belong on. Without a canary release it is
   * this server's own; during one, the release's view; null while that is not known yet.
   */
  latest(): InMemoryFile | null;
  /** builds/meta/<id>.json by id: only the running build's, so no request ever names a file. */
  manifests: ReadonlyMap<string, InMemoryFile>;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
/** How open tabs learn of a new build: never kept by any cache. */
export const UNCACHED = 'no-cache, no-store, must-revalidate';

/**
 * The build-freshness files `npm run build` wrote under `builds/`, read once at
 * start-up: `latest.json` is never cached (it is how open tabs learn of a new
 * build) and tells how often to poll; a manifest is immutable. `latest.json`
 * serves as this build's `current.json` too.
 */
export function loadBuildFiles(dir: string, pollIntervalMs: number): BuildFiles {
  const buildsDir = path.join(dir, 'builds');
  const read = (file: string, cacheControl: string, headers: string[] = []) =>
    createInMemoryFile({ body: readFileSync(file), contentType: JSON_TYPE, cacheControl, lastModified: statSync(file).mtime, headers });
  const current = read(path.join(buildsDir, 'latest.json'), UNCACHED, [POLL_INTERVAL_HEADER, String(pollIntervalMs)]);
  const manifests = new Map<string, InMemoryFile>();
  const metaDir = path.join(buildsDir, 'meta');
  for (const name of readdirSync(metaDir)) {
    if (name.endsWith('.json')) {
      manifests.set(name.slice(0, -'.json'.length), read(path.join(metaDir, name), 'public, max-age=31536000, immutable'));
    }
  }
  return { current, latest: () => current, manifests };
}
