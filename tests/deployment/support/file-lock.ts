import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Whether the process that took the lock in `dir` is gone (a run that was killed). */
function holderIsGone(dir: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(dir, 'pid'), 'utf8'));
  } catch {
    // Taken a moment ago and the pid not written yet.
    return false;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * Runs `task` while no other process on this machine runs a task under the same
 * name: vitest's workers would otherwise build the same images side by side.
 */
export async function withFileLock<T>(name: string, task: () => Promise<T>): Promise<T> {
  const dir = path.join(tmpdir(), `${name}.lock`);
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (holderIsGone(dir)) rmSync(dir, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  try {
    return await task();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
