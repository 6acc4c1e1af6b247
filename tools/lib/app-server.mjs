// Starts the built app on a port and stops it. In tools/ because the user's bench and
// rollout demo need it as much as the tests do, and scripts never import tests.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinnedNode } from '../node-runtime.mjs';
import { exitAsFailure, waitFor } from './wait.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What `npm start` runs: our entry, compiled into the standalone output. */
export const SERVER_ENTRY = '.next/standalone/meridian-server.cjs';

/**
 * Resolves once `url` answers 200, or rejects after `timeoutMs`.
 * @param {string} url
 * @param {number} [timeoutMs]
 */
export function waitForHttp(url, timeoutMs = 30_000) {
  return waitFor(
    `app-server: ${url} to answer 200`,
    async () => {
      const response = await fetch(url, { redirect: 'manual' });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
    },
    { timeoutMs },
  );
}

/**
 * Runs the production server (our entry) of the current build, or of the build
 * whose entry is given, on `port`, on the pinned Node production runs. Returns its base URL, its output so far, and
 * a stop() that waits for exit and resolves with the exit code. A server not
 * ready within `readyTimeoutMs` is killed before the error is thrown: nothing
 * outlives the run that started it.
 * @param {{ port: number, env?: Record<string, string>, cwd?: string, entry?: string, readyTimeoutMs?: number }} options
 */
export async function startApp({ port, env = {}, cwd = ROOT, entry = path.join(ROOT, SERVER_ENTRY), readyTimeoutMs = 30_000 }) {
  const child = spawn(pinnedNode(), [entry], {
    cwd,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOSTNAME: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const exited = once(child, 'exit');
  // Once ready, a later exit is expected (stop()): exitAsFailure never leaves it unhandled.
  const diedEarly = exitAsFailure('app-server', exited, () => output);
  try {
    await Promise.race([waitForHttp(`${url}/readyz`, readyTimeoutMs), diedEarly]);
  } catch (error) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    throw error;
  }
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const [code] = await exited;
      return code;
    },
  };
}
