import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { installableClosure, packageSet, packageSetChanges, type PackageSet } from '../support/host-packages.mjs';

// Written by `npm test` (tests/support/run-suites.mjs) before its first suite; this file runs after its last.
// Any other run has no package set of its own to compare with (a file of an earlier run would be stale).
const BEFORE = process.env.MERIDIAN_HOST_PACKAGES_BEFORE;
// Under CI nothing is skipped: without the recorded set, the test fails saying so.
const skipped = !BEFORE && process.env.CI !== 'true';
if (skipped) console.warn('>>> SKIPPED tests/host: only npm test runs it, against the package set it records before its first suite');

describe.skipIf(skipped)("the host's Debian packages after every suite", () => {
  it('are those before, plus only what the suites install (tools/debian-packages.mjs) and its dependencies', () => {
    const recorded = BEFORE ?? '';
    expect(
      existsSync(recorded),
      `no package set recorded (MERIDIAN_HOST_PACKAGES_BEFORE=${recorded}): npm test records it before its first suite`,
    ).toBe(true);
    const before = JSON.parse(readFileSync(recorded, 'utf8')) as PackageSet;
    expect(Object.keys(before).length).toBeGreaterThan(100);
    expect(packageSetChanges(before, packageSet(), installableClosure())).toEqual([]);
  });
});
