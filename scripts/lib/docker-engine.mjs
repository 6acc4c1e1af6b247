// A Docker engine and Compose for the Docker tests. CI runs on a fresh machine
// where nothing can be installed by hand, so the tests install Debian's
// docker.io and start dockerd themselves when no engine answers.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { succeeds } from './command.mjs';
import { ensureDebianPackages } from './system-deps.mjs';

export const DOCKERD_LOG = path.join(tmpdir(), 'meridian-dockerd.log');

export function engineAnswers() {
  return succeeds('docker', ['info']);
}

function startDockerd() {
  console.log(`\n>>> starting dockerd (no Docker engine answered); its log: ${DOCKERD_LOG}\n`);
  const log = openSync(DOCKERD_LOG, 'a');
  // Detached: the engine outlives the test run, like one started by systemd.
  spawn('dockerd', [], { detached: true, stdio: ['ignore', log, log] }).unref();
  closeSync(log);
}

/** Makes `docker` reach an engine: installs docker.io and starts dockerd when none answers. */
export async function ensureDockerEngine(timeoutMs = 60_000) {
  if (engineAnswers()) return;
  ensureDebianPackages(['docker.io']);
  // On a machine run by systemd, installing the package started the engine.
  if (!engineAnswers()) startDockerd();
  const deadline = Date.now() + timeoutMs;
  while (!engineAnswers()) {
    if (Date.now() > deadline) throw new Error(`docker-engine: dockerd did not answer within ${timeoutMs} ms; see ${DOCKERD_LOG}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
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
