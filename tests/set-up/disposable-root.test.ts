import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDebianPackages } from '../../tools/debian-packages.mjs';
import { ROOT } from '../../tools/lib/app-server.mjs';
import { pinnedNode } from '../../tools/node-runtime.mjs';
import { machineWithout, type DisposableRoot } from '../support/disposable-root.mjs';
import {
  installableClosure,
  LISTING_ARGS,
  packageSet,
  packageSetChanges,
  parsePackageSet,
  type PackageSet,
} from '../support/host-packages.mjs';

// The cluster tests prove on a machine made this way that cluster:up and the canary demo install
// a missing package; here, with the suites' smallest package, that the machine is what a fresh
// one would be, that the installer really installs into it, and that the host never changes.
const PACKAGE = 'wrk';
const BINARY = '/usr/bin/wrk';

let root: DisposableRoot;
let hostBefore: PackageSet;
const rootPackages = async () => parsePackageSet((await root.run('dpkg-query', LISTING_ARGS)).stdout);

beforeAll(async () => {
  ensureDebianPackages([PACKAGE]);
  hostBefore = packageSet();
  root = await machineWithout([PACKAGE]);
}, 300_000);

afterAll(async () => {
  await root?.close();
});

describe('a disposable root without a Debian package (tests/support/disposable-root.mjs)', () => {
  it('lacks the package and its files, while the host keeps both', async () => {
    expect(await root.installed(PACKAGE)).toBe(false);
    expect((await root.run('test', ['-e', BINARY])).exitCode).toBe(1);
    expect(existsSync(BINARY)).toBe(true);
    expect(packageSet()).toEqual(hostBefore);
  });

  it("is a changed machine to the suite's last test, which would fail on it", async () => {
    expect(packageSetChanges(hostBefore, await rootPackages(), installableClosure())).toEqual([
      expect.stringMatching(new RegExp(`^removed ${PACKAGE} `)),
    ]);
  });

  it('gets the package back from ensureDebianPackages, with apt, into the root alone', { timeout: 300_000 }, async () => {
    const installer = `import { ensureDebianPackages } from './tools/debian-packages.mjs'; ensureDebianPackages([${JSON.stringify(PACKAGE)}]);`;
    const installed = await root.run(pinnedNode(), ['--input-type=module', '--eval', installer], { cwd: ROOT });
    expect(installed.exitCode, installed.stderr).toBe(0);
    expect(installed.stderr).toContain(`>>> installing Debian packages: ${PACKAGE}`);
    expect(await root.installed(PACKAGE)).toBe(true);
    expect((await root.run(BINARY, ['--version'])).stdout).toMatch(/^wrk /);
    expect(await rootPackages()).toEqual(hostBefore);
  });

  it('leaves the host as it was once closed', async () => {
    await root.close();
    expect(packageSet()).toEqual(hostBefore);
    expect(existsSync(BINARY)).toBe(true);
  });
});
