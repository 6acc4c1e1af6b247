import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { lock } from 'proper-lockfile';

/**
 * Runs `task` while no other process on this machine runs a task under the same
 * name: vitest's workers would otherwise build the same images side by side. A lock
 * left by a killed run goes stale (no longer refreshed) and is taken over.
 */
export async function withFileLock<T>(name: string, task: () => Promise<T>): Promise<T> {
  // proper-lockfile locks an existing file: an empty one, named after the task.
  const file = path.join(tmpdir(), name);
  writeFileSync(file, '', { flag: 'a' });
  const release = await lock(file, { retries: { forever: true, minTimeout: 1000, maxTimeout: 1000 } });
  try {
    return await task();
  } finally {
    await release();
  }
}
