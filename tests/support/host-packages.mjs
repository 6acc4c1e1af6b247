// The host's Debian package set, which `npm test` may only add to: the packages of
// tools/debian-packages.mjs and what they depend on. The runner records it before the suites
// (`recordPackageSet`); the last test compares it with the set after them.
import { writeFileSync } from 'node:fs';
import { installablePackages } from '../../tools/debian-packages.mjs';
import { runSync } from '../../tools/lib/command.mjs';

/** @typedef {Record<string, string>} PackageSet installed package (`name:arch`) → version */

/**
 * `dpkg-query`'s output, one `name:arch version status` line per package, read into a set of
 * the installed ones.
 * @param {string} listing
 * @returns {PackageSet}
 */
export function parsePackageSet(listing) {
  const installed = listing
    .split('\n')
    .map((line) => line.split(' '))
    .filter(([name, version, status]) => name && version && status === 'installed');
  return Object.fromEntries(installed.map(([name, version]) => [name, version]));
}

/** The `dpkg-query` arguments of the listing parsePackageSet reads. */
export const LISTING_ARGS = ['-W', '-f=${binary:Package} ${Version} ${db:Status-Status}\n'];

/** This machine's installed packages. */
export const packageSet = () => parsePackageSet(runSync('dpkg-query', LISTING_ARGS).stdout);

/** @param {string} file */
export const recordPackageSet = (file) => writeFileSync(file, `${JSON.stringify(packageSet(), null, 1)}\n`);

/**
 * The packages the suites may install, and every package those depend on (apt-cache's
 * Depends and Pre-Depends, recursively), as `name` without the architecture.
 */
export function installableClosure() {
  const { stdout } = runSync('apt-cache', [
    'depends',
    '--recurse',
    '--no-recommends',
    '--no-suggests',
    '--no-conflicts',
    '--no-breaks',
    '--no-replaces',
    '--no-enhances',
    ...installablePackages(),
  ]);
  const names = [...stdout.matchAll(/^(?:\s+\|?(?:Pre)?Depends: )?([a-z0-9][a-z0-9.+-]+)(?::\w+)?$/gm)].map((match) => match[1] ?? '');
  return new Set(names);
}

/**
 * How `after` differs from `before` beyond what the suites may install: a package removed, or
 * one added or moved to another version that is neither installable nor a dependency of one.
 * @param {PackageSet} before
 * @param {PackageSet} after
 * @param {Set<string>} installable package names (without the architecture)
 * @returns {string[]} one line per change
 */
export function packageSetChanges(before, after, installable) {
  const mayChange = (/** @type {string} */ name) => installable.has(name.replace(/:.*$/, ''));
  const changes = [];
  for (const [name, version] of Object.entries(before)) {
    const now = after[name];
    if (now === undefined) changes.push(`removed ${name} ${version}`);
    else if (now !== version && !mayChange(name)) changes.push(`changed ${name} ${version} → ${now}`);
  }
  for (const [name, version] of Object.entries(after))
    if (!(name in before) && !mayChange(name)) changes.push(`added ${name} ${version}, which no suite installs`);
  return changes;
}
