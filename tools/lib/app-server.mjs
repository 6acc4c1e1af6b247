// Starts the built app on a port and stops it. In tools/ because the user's bench and
// rollout demo need it as much as the tests do, and scripts never import tests.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinnedNode } from '../node-runtime.mjs';
import { startDaemon } from './daemon.mjs';
import { answers200 } from './wait.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What `npm start` runs: our entry, compiled into the standalone output. */
export const SERVER_ENTRY = '.next/standalone/meridian-server.cjs';

/**
 * The page-view token key of every server the harness starts: like a release's pods (the
 * chart's Secret), they verify each other's tokens, so a tab's reports still count after its
 * server is replaced by another build's.
 */
export const HARNESS_TOKEN_KEYS = 'meridian-harness-page-view-token-key';

/**
 * Runs the production server (our entry) of the current build, or of the build whose entry is
 * given, on `port`, on the pinned Node production runs, and resolves once its /readyz answers
 * 200 (unless `waitReady` is false). A server not ready within `readyTimeoutMs` is killed
 * before the error is thrown: nothing outlives the run that started it.
 * @param {{ port: number, env?: Record<string, string>, baseEnv?: Record<string, string | undefined>, cwd?: string, entry?: string, readyTimeoutMs?: number, waitReady?: boolean, keepAllOutput?: boolean }} options
 *   `env` on top of `baseEnv` (this process's environment by default); `keepAllOutput` as startDaemon's
 */
export async function startApp({
  port,
  env = {},
  baseEnv = process.env,
  cwd = ROOT,
  entry = path.join(ROOT, SERVER_ENTRY),
  readyTimeoutMs = 30_000,
  waitReady = true,
  keepAllOutput = false,
}) {
  const url = `http://${env.HOSTNAME ?? '127.0.0.1'}:${port}`;
  const daemon = await startDaemon({
    name: 'app-server',
    command: pinnedNode(),
    args: [entry],
    cwd,
    env: {
      ...baseEnv,
      NODE_ENV: 'production',
      PORT: String(port),
      HOSTNAME: '127.0.0.1',
      TELEMETRY_TOKEN_KEYS: HARNESS_TOKEN_KEYS,
      ...env,
    },
    ready: waitReady ? () => answers200(`${url}/readyz`) : undefined,
    readyTimeoutMs,
    keepAllOutput,
  });
  return { ...daemon, url };
}
