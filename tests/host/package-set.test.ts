import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../tools/lib/app-server.mjs';
import { installableClosure, packageSet, packageSetChanges, type PackageSet } from '../support/host-packages.mjs';

// Written by `npm test` (tests/support/run-suites.mjs) before its first suite; this file runs after its last.
const BEFORE = process.env.MERIDIAN_HOST_PACKAGES_BEFORE ?? path.join(ROOT, 'test-reports', 'host-packages-before.json');

describe("the host's Debian packages after every suite", () => {
  it('are those before, plus only what the suites install (tools/debian-packages.mjs) and its dependencies', () => {
    expect(existsSync(BEFORE), `no package set recorded at ${BEFORE}: npm test records it before its first suite`).toBe(true);
    const before = JSON.parse(readFileSync(BEFORE, 'utf8')) as PackageSet;
    expect(Object.keys(before).length).toBeGreaterThan(100);
    expect(packageSetChanges(before, packageSet(), installableClosure())).toEqual([]);
  });
});
