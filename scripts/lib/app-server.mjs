// Starts the built app on a port and stops it: shared by the e2e tests and the benchmarks.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What `npm start` runs: our entry, compiled into the standalone output. */
export const SERVER_ENTRY = '.next/standalone/meridian-server.cjs';

/** Resolves once `url` answers 200, or rejects after `timeoutMs`. */
export async function waitForHttp(url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const response = await fetch(url, { redirect: 'manual' });
      await response.arrayBuffer();
      if (response.status === 200) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`app-server: ${url} was not ready within ${timeoutMs} ms`, { cause: last });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Runs the production server (our entry) of the current build, or of the build
 * whose entry is given, on `port`. Returns its base URL, its output so far, and
 * a stop() that waits for exit and resolves with the exit code.
 * @param {{ port: number, env?: Record<string, string>, cwd?: string, entry?: string }} options
 */
export async function startApp({ port, env = {}, cwd = ROOT, entry = path.join(ROOT, SERVER_ENTRY) }) {
  const child = spawn(process.execPath, [entry], {
    cwd,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOSTNAME: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const exited = once(child, 'exit');
  const diedEarly = exited.then(([code]) => {
    throw new Error(`app-server: exited with ${code} before answering:\n${output}`);
  });
  // Once ready, a later exit is expected (stop()): never an unhandled rejection.
  diedEarly.catch(() => {});
  await Promise.race([waitForHttp(`${url}/readyz`), diedEarly]);
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
