import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface BuildFiles {
  /** builds/latest.json as the build wrote it. */
  latest: Buffer;
  /** builds/meta/<id>.json by id: only the running build's, so no request ever names a file. */
  manifests: ReadonlyMap<string, Buffer>;
}

/** The build-freshness files `npm run build` wrote under `builds/`, read once at start-up. */
export function loadBuildFiles(dir: string): BuildFiles {
  const buildsDir = path.join(dir, 'builds');
  const latest = readFileSync(path.join(buildsDir, 'latest.json'));
  const manifests = new Map<string, Buffer>();
  const metaDir = path.join(buildsDir, 'meta');
  for (const name of readdirSync(metaDir)) {
    if (name.endsWith('.json')) manifests.set(name.slice(0, -'.json'.length), readFileSync(path.join(metaDir, name)));
  }
  return { latest, manifests };
}
