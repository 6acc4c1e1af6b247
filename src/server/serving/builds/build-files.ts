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
const UNCACHED = 'no-cache, no-store, must-revalidate';

/** A `builds/latest.json` (or `current.json`) of `body`: never cached, telling tabs how often to poll. */
export function latestBuildFile(body: Buffer, lastModified: Date, pollIntervalMs: number): InMemoryFile {
  return createInMemoryFile({
    body,
    contentType: JSON_TYPE,
    cacheControl: UNCACHED,
    lastModified,
    headers: [POLL_INTERVAL_HEADER, String(pollIntervalMs)],
  });
}

/**
 * The build-freshness files `npm run build` wrote under `builds/`, read once at
 * start-up: `latest.json` is never cached (it is how open tabs learn of a new
 * build) and tells how often to poll; a manifest is immutable. `latest.json`
 * serves as this build's `current.json` too.
 */
export function loadBuildFiles(dir: string, pollIntervalMs: number): BuildFiles {
  const buildsDir = path.join(dir, 'builds');
  const latestFile = path.join(buildsDir, 'latest.json');
  const current = latestBuildFile(readFileSync(latestFile), statSync(latestFile).mtime, pollIntervalMs);
  const manifests = new Map<string, InMemoryFile>();
  const metaDir = path.join(buildsDir, 'meta');
  for (const name of readdirSync(metaDir)) {
    if (name.endsWith('.json')) {
      const file = path.join(metaDir, name);
      manifests.set(
        name.slice(0, -'.json'.length),
        createInMemoryFile({
          body: readFileSync(file),
          contentType: JSON_TYPE,
          cacheControl: 'public, max-age=31536000, immutable',
          lastModified: statSync(file).mtime,
        }),
      );
    }
  }
  return { current, latest: () => current, manifests };
}
