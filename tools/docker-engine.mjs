// A Docker engine and Compose for the Docker tests. CI runs on a fresh machine
// where nothing can be installed by hand, so the tests install Debian's
// docker.io and start dockerd themselves when no engine answers.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSync, succeeds } from './lib/command.mjs';
import { insideTestBlock } from './lib/test-network.mjs';
import { ensureDebianPackages } from './debian-packages.mjs';
import { waitFor, waitWhileRunning } from './lib/wait.mjs';

export const DOCKERD_LOG = path.join(tmpdir(), 'meridian-dockerd.log');
const DOCKERD_PID_FILE = '/var/run/docker.pid';

export function engineAnswers() {
  return succeeds('docker', ['info']);
}

/**
 * The engine's bridge and the networks Compose creates, inside 198.18.0.0/15 (the
 * block set aside for network testing) beside the local cluster's 198.18.x ranges:
 * test traffic never goes to 10/8, 172.16/12 or 192.168/16.
 */
export const DOCKERD_NETWORK_ARGS = ['--bip=198.19.0.1/24', '--default-address-pool', 'base=198.19.128.0/17,size=24'];

/** The subnets of the engine's default bridge network, as `docker network inspect` gives them. */
export function bridgeSubnets() {
  const { stdout: out } = runSync('docker', ['network', 'inspect', 'bridge', '--format', '{{range .IPAM.Config}}{{.Subnet}} {{end}}']);
  return out.trim().split(/\s+/).filter(Boolean);
}

/** An engine that answers but puts containers outside 198.18.0.0/15 is refused, in one line. */
function checkBridge() {
  const outside = bridgeSubnets().filter((subnet) => !insideTestBlock(subnet));
  if (outside.length) {
    throw new Error(
      `docker: the running engine's bridge is ${outside.join(', ')}, outside 198.18.0.0/15, where test traffic must stay; stop it (the tests then start their own) or restart it with ${DOCKERD_NETWORK_ARGS.join(' ')}`,
    );
  }
}

/** Starts dockerd in the background; returns its process. */
function startDockerd() {
  // On stderr, as all set-up progress: stdout belongs to whoever reads ours.
  process.stderr.write(`\n>>> starting dockerd (no Docker engine answered); its log: ${DOCKERD_LOG}\n\n`);
  const log = openSync(DOCKERD_LOG, 'a');
  // Detached, so every test worker can use it; stopped by whoever started it.
  const dockerd = spawn('dockerd', DOCKERD_NETWORK_ARGS, { detached: true, stdio: ['ignore', log, log] });
  dockerd.unref();
  closeSync(log);
  return dockerd;
}

/** Whether the dockerd named by the pid file still runs (starting, or shutting down). */
function pidFileDockerdAlive() {
  try {
    process.kill(Number(readFileSync(DOCKERD_PID_FILE, 'utf8')), 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes `docker` reach an engine: installs docker.io and starts dockerd when
 * none answers. `stop()` stops the engine again only if this call started it
 * (its images stay on disk for the next run), and resolves once it has exited.
 * @returns {Promise<{ stop(): Promise<void> }>}
 */
export async function ensureDockerEngine(timeoutMs = 60_000) {
  const noop = { stop: async () => {} };
  if (engineAnswers()) {
    checkBridge();
    return noop;
  }
  ensureDebianPackages(['docker.io']);
  const polling = { timeoutMs, intervalMs: 500 };
  // A dockerd of an earlier run may still be shutting down (or one started by
  // systemd with the package still starting): a second one would refuse to
  // start while its pid file is there.
  await waitFor(
    'the running dockerd to answer or exit',
    () => {
      if (!engineAnswers() && pidFileDockerdAlive()) throw new Error(`${DOCKERD_PID_FILE} names a live process that does not answer`);
    },
    polling,
  );
  if (engineAnswers()) {
    checkBridge();
    return noop;
  }
  const dockerd = startDockerd();
  await waitWhileRunning(
    'dockerd to answer',
    () => {
      if (!engineAnswers()) throw new Error(`docker info failed; see ${DOCKERD_LOG}`);
    },
    { name: 'dockerd', exited: once(dockerd, 'exit'), output: () => readFileSync(DOCKERD_LOG, 'utf8') },
    polling,
  );
  return {
    async stop() {
      if (dockerd.exitCode !== null) return;
      const exited = once(dockerd, 'exit');
      // Held until it has exited, so the next run never meets its pid file.
      dockerd.ref();
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
