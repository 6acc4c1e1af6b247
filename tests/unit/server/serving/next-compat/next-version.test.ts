import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKED_NEXT_VERSION, checkNextVersion, UnsupportedNextError } from '@/server/serving/next-compat/next-version';

const ROOT = path.resolve(import.meta.dirname, '../../../../..');
const builds: string[] = [];

/** A standalone folder whose node_modules holds a Next of `version`. */
function standaloneWith(version: string): NodeJS.Require {
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-next-version-'));
  builds.push(dir);
  mkdirSync(path.join(dir, 'node_modules', 'next'), { recursive: true });
  writeFileSync(path.join(dir, 'node_modules', 'next', 'package.json'), JSON.stringify({ name: 'next', version }));
  return createRequire(path.join(dir, 'server.js'));
}

afterEach(() => {
  for (const dir of builds.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the Next the private formats were checked against', () => {
  it('is the one package.json pins: an upgrade of Next fails here until next-compat/ is checked again', () => {
    const { dependencies } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(dependencies.next).toBe(CHECKED_NEXT_VERSION);
    expect(() => checkNextVersion(createRequire(path.join(ROOT, 'server.js')))).not.toThrow();
  });

  it('refuses any other release, even a patch, naming both versions and the switch that lets Next answer', () => {
    const requireFromBuild = standaloneWith('16.4.6');
    expect(() => checkNextVersion(requireFromBuild)).toThrow(UnsupportedNextError);
    expect(() => checkNextVersion(requireFromBuild)).toThrow(
      `Next 16.4.6 is not the Next src/server/serving/next-compat/ was checked against (${CHECKED_NEXT_VERSION}): set NEXT_ANSWERS_ALL=true`,
    );
  });
});
