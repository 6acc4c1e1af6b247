// A machine without some Debian packages, to throw away: the tests that prove a command installs
// what is missing get one of these instead of running `apt-get remove` on the host. It is a mount
// namespace in which /usr, /etc, /var and /opt are overlays whose writes land in a temporary
// folder; the packages are removed by apt inside it, so what runs there sees a machine without
// them, installs them again into the overlays, and the host never sees any of it.
import { mkdirSync, mkdtempSync, readlinkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run as runOnHost } from '../../tools/lib/command.mjs';
import { startDaemon } from '../../tools/lib/daemon.mjs';

/** Where apt and dpkg write: everything else (the repository, /tmp, /root) is the host's. */
const OVERLAID = ['usr', 'etc', 'var', 'opt'];

// Maintainer scripts run in the namespace but start services on the host: refuse them all.
const POLICY_RC_D = "#!/bin/sh\n# Services are the host's: no package of a disposable root starts or stops one.\nexit 101\n";

/**
 * @typedef {{
 *   run(command: string, args: string[], options?: { cwd?: string, env?: NodeJS.ProcessEnv }): Promise<import('../../tools/lib/command.mjs').Finished>,
 *   installed(name: string): Promise<boolean>,
 *   close(): Promise<void>,
 * }} DisposableRoot
 */

/**
 * The namespace's holder: `sleep` in a mount namespace of its own, killed with the process that
 * started it (setpriv's parent-death signal), so no namespace outlives a killed test run.
 * Ready once unshare has made the namespace and handed over to sleep.
 */
function startHolder() {
  const ownNamespace = readlinkSync('/proc/self/ns/mnt');
  return startDaemon({
    name: 'disposable-root: the mount namespace',
    command: 'setpriv',
    args: ['--pdeathsig', 'KILL', '--', 'unshare', '--mount', '--propagation', 'private', '--', 'sleep', 'infinity'],
    ready: ({ pid }) => {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'sleep' || readlinkSync(`/proc/${pid}/ns/mnt`) === ownNamespace)
        throw new Error('not yet unshared');
    },
    readyTimeoutMs: 10_000,
  });
}

/**
 * A machine like this one without `packages`, removed with `apt-get remove` inside the namespace
 * (so what depends on them goes too, as on a machine that never had them).
 * @param {string[]} packages
 * @returns {Promise<DisposableRoot>}
 */
export async function machineWithout(packages) {
  const holder = await startHolder();
  const folder = mkdtempSync(path.join(tmpdir(), 'meridian-disposable-root-'));
  /** @type {DisposableRoot['run']} */
  const run = (command, args, { cwd = '/', env = process.env } = {}) =>
    runOnHost('nsenter', ['--target', String(holder.pid), '--mount', `--wd=${cwd}`, '--', command, ...args], { env, check: false });
  const root = {
    run,
    /** @param {string} name */
    async installed(name) {
      return (await run('dpkg-query', ['-W', '-f=${Status}', name])).stdout === 'install ok installed';
    },
    async close() {
      await holder.stop('SIGKILL');
      // The mounts go with the namespace's last process; their folders are plain files on the host.
      rmSync(folder, { recursive: true, force: true });
    },
  };
  try {
    for (const dir of OVERLAID) {
      const upper = path.join(folder, dir, 'upper');
      const work = path.join(folder, dir, 'work');
      mkdirSync(work, { recursive: true });
      if (dir === 'usr') {
        mkdirSync(path.join(upper, 'sbin'), { recursive: true });
        writeFileSync(path.join(upper, 'sbin', 'policy-rc.d'), POLICY_RC_D, { mode: 0o755 });
      } else mkdirSync(upper);
      const mounted = await run('mount', [
        '-t',
        'overlay',
        'overlay',
        '-o',
        `lowerdir=/${dir},upperdir=${upper},workdir=${work}`,
        `/${dir}`,
      ]);
      if (mounted.exitCode !== 0) throw new Error(`disposable-root: mounting the overlay on /${dir} failed: ${mounted.stderr.trim()}`);
    }
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const removed = await run('apt-get', ['remove', '-y', '-qq', ...packages], { env });
    if (removed.exitCode !== 0) throw new Error(`disposable-root: apt-get remove ${packages.join(' ')} failed: ${removed.stderr.trim()}`);
    for (const name of packages) if (await root.installed(name)) throw new Error(`disposable-root: ${name} is still installed`);
    return root;
  } catch (error) {
    await root.close();
    throw error;
  }
}
