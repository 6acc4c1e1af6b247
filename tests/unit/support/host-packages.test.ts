import { describe, expect, it } from 'vitest';
import { parsePackageSet, packageSetChanges } from '../../support/host-packages.mjs';

describe("tests/support/host-packages.mjs: the host's package set, which npm test may only add to", () => {
  it("reads dpkg-query's listing into the installed packages only", () => {
    const listing = 'adduser 3.134 installed\nlibc6:amd64 2.36-9 installed\nold-tool 1.0 config-files\n\n';
    expect(parsePackageSet(listing)).toEqual({ adduser: '3.134', 'libc6:amd64': '2.36-9' });
  });

  const before = { adduser: '3.134', chromium: '120.0-1', 'libc6:amd64': '2.36-9' };
  const installable = new Set(['chromium', 'wrk', 'libc6', 'libluajit2-5.1-2']);

  it('names a removed package, even one the suites may install', () => {
    expect(packageSetChanges(before, { adduser: '3.134', 'libc6:amd64': '2.36-9' }, installable)).toEqual(['removed chromium 120.0-1']);
  });

  it('names a package added or moved to another version that no suite installs, nor depends on', () => {
    const after = { ...before, adduser: '3.135', nginx: '1.22-1' };
    expect(packageSetChanges(before, after, installable)).toEqual([
      'changed adduser 3.134 → 3.135',
      'added nginx 1.22-1, which no suite installs',
    ]);
  });

  it('accepts what the suites install and its dependencies, new or upgraded', () => {
    const after = { ...before, 'libc6:amd64': '2.36-10', wrk: '4.1.0-3', 'libluajit2-5.1-2': '2.1-1' };
    expect(packageSetChanges(before, after, installable)).toEqual([]);
  });
});
