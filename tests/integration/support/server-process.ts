import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ROOT, SERVER_ENTRY, startApp } from '../../../tools/lib/app-server.mjs';
import { freePort } from '../../../tools/lib/ports.mjs';

export { freePort };

export interface RunningServer {
  url: string;
  metricsUrl: string;
  /** The serving process's. */
  pid: number | undefined;
  /** Every stdout line so far. */
  lines(): string[];
  stderr(): string;
  exited: Promise<number | null>;
  /** Sends `signal` without waiting. */
  kill(signal: NodeJS.Signals): void;
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
    get pid() {
      return current().pid;
    },
    get exited() {
      return current().exited;
    },
    lines: () => current().lines(),
    stderr: () => current().stderr(),
    kill: (signal) => current().kill(signal),
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
  const app = await startApp({
    port,
    entry: options.entry,
    baseEnv: { PATH: process.env.PATH },
    env: { METRICS_PORT: String(metricsPort), SHUTDOWN_DELAY_MS: '0', ...env },
    waitReady: options.waitReady !== false,
    // lines() is every line: the log tests look for lines of the server's start.
    keepAllOutput: true,
  });
  return {
    url: app.url,
    // A server given its own loopback address (HOSTNAME, as a pod has its own) is reached there.
    metricsUrl: `http://${env.HOSTNAME ?? '127.0.0.1'}:${metricsPort}`,
    pid: app.pid,
    lines: () => app.stdout().split('\n').filter(Boolean),
    stderr: app.stderr,
    exited: app.exited,
    kill: app.kill,
    stop: app.stop,
  };
}

/** The parsed JSON lines of a server's stdout; throws on any line that is not JSON. */
export function jsonLines(server: RunningServer): Record<string, unknown>[] {
  return server.lines().map((line) => JSON.parse(line) as Record<string, unknown>);
}
