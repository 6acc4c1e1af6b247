import { latestBuildFile, type BuildFiles } from '@/server/serving/builds/build-files';
import type { InMemoryFile } from '@/server/serving/files/in-memory-file';
import type { ReleaseView } from './release-view';

/** The files with `builds/latest.json` following a canary release's view (release-view.ts) as it changes. */
export function followRelease(files: BuildFiles, view: () => ReleaseView | null, pollIntervalMs: number): BuildFiles {
  let shown: ReleaseView | null = null;
  let latest: InMemoryFile | null = null;
  const latestOfRelease = () => {
    const current = view();
    if (current !== shown) [shown, latest] = [current, current && releaseLatestFile(current, pollIntervalMs)];
    return latest;
  };
  return { ...files, latest: latestOfRelease };
}

/**
 * `builds/latest.json` during a canary release: the stable build's id and timestamp,
 * and the canary's id while one is judged (src/freshness/build-poller.ts reads both).
 */
function releaseLatestFile(view: ReleaseView, pollIntervalMs: number): InMemoryFile {
  const body = { id: view.stable.id, timestamp: view.stable.timestamp, ...(view.canary ? { canary: view.canary.id } : {}) };
  return latestBuildFile(Buffer.from(`${JSON.stringify(body)}\n`), new Date(), pollIntervalMs);
}
