import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { POLL_INTERVAL_HEADER } from '@/shared/build-poll';
import { createServedFile, type ServedFile } from '@/server/serving/files/served-file';

export interface BuildFiles {
  /** builds/latest.json as the build wrote it. */
  latest: ServedFile;
  /** builds/meta/<id>.json by id: only the running build's, so no request ever names a file. */
  manifests: ReadonlyMap<string, ServedFile>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The build-freshness files `npm run build` wrote under `builds/`, read once at
 * start-up: `latest.json` is never cached (it is how open tabs learn of a new
 * build) and tells how often to poll; a manifest is immutable.
 */
export function loadBuildFiles(dir: string, pollIntervalMs: number): BuildFiles {
  const buildsDir = path.join(dir, 'builds');
  const read = (file: string, cacheControl: string, headers: string[] = []) =>
    createServedFile({ body: readFileSync(file), contentType: JSON_TYPE, cacheControl, lastModified: statSync(file).mtime, headers });
  const latest = read(path.join(buildsDir, 'latest.json'), 'no-cache, no-store, must-revalidate', [
    POLL_INTERVAL_HEADER,
    String(pollIntervalMs),
  ]);
  const manifests = new Map<string, ServedFile>();
  const metaDir = path.join(buildsDir, 'meta');
  for (const name of readdirSync(metaDir)) {
    if (name.endsWith('.json')) {
      manifests.set(name.slice(0, -'.json'.length), read(path.join(metaDir, name), 'public, max-age=31536000, immutable'));
    }
  }
  return { latest, manifests };
}
