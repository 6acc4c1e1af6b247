// Debian's haproxy as a child process, in the foreground, with a generated config.
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ensureDebianPackages } from '../debian-packages.mjs';
import { runSync } from '../lib/command.mjs';
import { startDaemon } from '../lib/daemon.mjs';
import { waitFor } from '../lib/wait.mjs';
import { haproxyConfig } from './haproxy-config.mjs';

const HAPROXY_PATH = '/usr/sbin/haproxy';

/**
 * Sends one command to haproxy's stats socket and returns its whole answer.
 * @param {string} socketPath
 * @param {string} command
 * @returns {Promise<string>}
 */
function askStatsSocket(socketPath, command) {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = net.connect(socketPath, () => socket.end(`${command}\n`));
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

/**
 * Each backend server's status as haproxy sees it (`UP`, `DOWN`, `UP 1/2`...), from `show stat`.
 * @param {string} socketPath
 */
async function serverStatuses(socketPath) {
  const [header = '', ...rows] = (await askStatsSocket(socketPath, 'show stat')).trim().split('\n');
  const columns = header.replace(/^# /, '').split(',');
  const column = (/** @type {string} */ name) => columns.indexOf(name);
  const [proxy, server, status] = [column('pxname'), column('svname'), column('status')];
  /** @type {Map<string, string>} */
  const statuses = new Map();
  for (const row of rows) {
    const cells = row.split(',');
    const name = cells[server] ?? '';
    if (cells[proxy] === 'app' && name !== 'BACKEND') statuses.set(name, cells[status] ?? '');
  }
  return statuses;
}

/**
 * Starts haproxy (Debian's, installed when missing) on `port` in front of `servers`, its
 * config and stats socket in `dir`. The config is checked first (`-c`), so a mistake in it
 * fails with haproxy's own message.
 * @param {{ dir: string, port: number, servers: { name: string, port: number, host?: string }[], forwardFor?: boolean }} options
 */
export async function startHaproxy({ dir, port, servers, forwardFor = false }) {
  ensureDebianPackages(['haproxy']);
  const configFile = path.join(dir, 'haproxy.cfg');
  const statsSocket = path.join(dir, 'haproxy.sock');
  writeFileSync(configFile, haproxyConfig({ port, servers, statsSocket, forwardFor }));
  const check = runSync(HAPROXY_PATH, ['-c', '-q', '-f', configFile], { check: false });
  if (check.exitCode !== 0) throw new Error(`haproxy: ${configFile} is invalid:\n${check.stderr}${check.stdout}`);

  // -db: foreground, so the process is ours to stop; -W would fork a worker.
  const haproxy = await startDaemon({
    name: 'haproxy',
    command: HAPROXY_PATH,
    args: ['-db', '-f', configFile],
    ready: () => askStatsSocket(statsSocket, 'show info'),
    readyTimeoutMs: 10_000,
  });

  return {
    url: `http://127.0.0.1:${port}`,
    /**
     * Resolves once haproxy's checks have put server `name` in the rotation.
     * @param {string} name
     * @param {number} [timeoutMs]
     */
    async waitUntilServing(name, timeoutMs = 10_000) {
      await waitFor(
        `haproxy to put ${name} in the rotation`,
        async () => {
          const status = (await serverStatuses(statsSocket)).get(name);
          if (status !== 'UP') throw new Error(`${name} is ${status ?? 'unknown'}`);
        },
        { timeoutMs },
      );
    },
    statuses: () => serverStatuses(statsSocket),
    stop: () => haproxy.stop(),
  };
}
