// A Docker engine and Compose for the Docker tests. CI runs on a fresh machine
// where nothing can be installed by hand, so the tests install Debian's
// docker.io and start dockerd themselves when no engine answers.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { succeeds } from './command.mjs';
import { ensureDebianPackages } from './system-deps.mjs';

export const DOCKERD_LOG = path.join(tmpdir(), 'meridian-dockerd.log');

export function engineAnswers() {
  return succeeds('docker', ['info']);
}

/** Starts dockerd in the background; returns its process. */
function startDockerd() {
  console.log(`\n>>> starting dockerd (no Docker engine answered); its log: ${DOCKERD_LOG}\n`);
  const log = openSync(DOCKERD_LOG, 'a');
  // Detached, so every test worker can use it; stopped by whoever started it.
  const dockerd = spawn('dockerd', [], { detached: true, stdio: ['ignore', log, log] });
  dockerd.unref();
  closeSync(log);
  return dockerd;
}

/**
 * Makes `docker` reach an engine: installs docker.io and starts dockerd when
 * none answers. `stop()` stops the engine again only if this call started it
 * (its images stay on disk for the next run).
 * @returns {Promise<{ stop(): Promise<void> }>}
 */
export async function ensureDockerEngine(timeoutMs = 60_000) {
  const noop = { stop: async () => {} };
  if (engineAnswers()) return noop;
  ensureDebianPackages(['docker.io']);
  // On a machine run by systemd, installing the package started the engine.
  const dockerd = engineAnswers() ? null : startDockerd();
  const deadline = Date.now() + timeoutMs;
  while (!engineAnswers()) {
    if (Date.now() > deadline) throw new Error(`docker-engine: dockerd did not answer within ${timeoutMs} ms; see ${DOCKERD_LOG}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (!dockerd) return noop;
  return {
    async stop() {
      if (dockerd.exitCode !== null) return;
      const exited = once(dockerd, 'exit');
      dockerd.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The Compose command: the v2 plugin (`docker compose`) where installed, else
 * Debian's docker-compose 1.29 (bookworm ships no v2), installed when missing.
 * @returns {string[]}
 */
export function ensureCompose() {
  if (succeeds('docker', ['compose', 'version'])) return ['docker', 'compose'];
  if (!succeeds('docker-compose', ['version'])) ensureDebianPackages(['docker-compose']);
  return ['docker-compose'];
}
