import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { pinnedNode } from '../../../tools/node-runtime.mjs';
import { ROOT, SERVER_ENTRY, waitForHttp } from '../../../tools/lib/app-server.mjs';
import { freePort } from '../../../tools/lib/ports.mjs';
import { exitAsFailure } from '../../../tools/lib/wait.mjs';

export { freePort };

export interface RunningServer {
  url: string;
  metricsUrl: string;
  child: ChildProcess;
  /** Every stdout line so far. */
  lines(): string[];
  stderr(): string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The public port a running server listens on, for raw sockets. */
export function portOf(server: RunningServer): number {
  return Number(new URL(server.url).port);
}

/**
 * One server for the calling test file: started (with `env`) before its tests, stopped after them.
 * What it returns reads that server, so it may be used in tests and hooks only, not while they are collected.
 */
export function serverPerFile(env: Record<string, string> = {}): RunningServer {
  let started: RunningServer | undefined;
  beforeAll(async () => {
    started = await startServer(env);
  });
  afterAll(async () => {
    await started?.stop();
  });
  const current = () => {
    if (!started) throw new Error("the file's server starts before its tests: read it inside a test or hook");
    return started;
  };
  return {
    get url() {
      return current().url;
    },
    get metricsUrl() {
      return current().metricsUrl;
    },
    get child() {
      return current().child;
    },
    get exited() {
      return current().exited;
    },
    lines: () => current().lines(),
    stderr: () => current().stderr(),
    stop: (signal) => current().stop(signal),
  };
}

/** A copy of the standalone build, for tests that break files in it. */
export function copyOfBuild(): string {
  const copy = mkdtempSync(path.join(tmpdir(), 'meridian-build-'));
  cpSync(path.join(ROOT, '.next', 'standalone'), copy, { recursive: true, verbatimSymlinks: true });
  return path.join(copy, path.basename(SERVER_ENTRY));
}

/** Starts our entry on free loopback ports and waits until /readyz answers 200 (unless told not to wait). */
export async function startServer(
  env: Record<string, string> = {},
  options: { entry?: string; waitReady?: boolean; port?: number } = {},
): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const metricsPort = await freePort();
  const child = spawn(pinnedNode(), [options.entry ?? path.join(ROOT, SERVER_ENTRY)], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      HOSTNAME: '127.0.0.1',
      SHUTDOWN_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const url = `http://127.0.0.1:${port}`;
  const server: RunningServer = {
    url,
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
    child,
    lines: () => stdout.split('\n').filter(Boolean),
    stderr: () => stderr,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  if (options.waitReady === false) return server;
  // Once ready, a later exit is expected (stop()): exitAsFailure never leaves it unhandled.
  const diedEarly = exitAsFailure('server', once(child, 'exit'), () => '');
  await Promise.race([waitForHttp(`${url}/readyz`), diedEarly]).catch((error: unknown) => {
    throw new Error(`server not ready: ${String(error)}\n${stderr}${stdout}`);
  });
  return server;
}

/** The parsed JSON lines of a server's stdout; throws on any line that is not JSON. */
export function jsonLines(server: RunningServer): Record<string, unknown>[] {
  return server.lines().map((line) => JSON.parse(line) as Record<string, unknown>);
}
