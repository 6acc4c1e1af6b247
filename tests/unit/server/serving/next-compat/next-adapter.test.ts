import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkNextInternals, routerStateCheck } from '@/server/serving/next-compat/next-adapter';
import { UnsupportedNextError } from '@/server/serving/next-compat/next-version';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const builds: string[] = [];

/** A standalone folder whose node_modules holds a Next of `version` with `configLoader` as its config loader. */
function standaloneWith(version: string, configLoader: string): NodeJS.Require {
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-next-adapter-'));
  builds.push(dir);
  const next = path.join(dir, 'node_modules', 'next');
  mkdirSync(path.join(next, 'dist', 'server'), { recursive: true });
  writeFileSync(path.join(next, 'package.json'), JSON.stringify({ name: 'next', version }));
  writeFileSync(path.join(next, 'dist', 'server', 'config.js'), configLoader);
  return createRequire(path.join(dir, 'server.js'));
}

afterEach(() => {
  for (const dir of builds.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the Next adapter', () => {
  it('accepts the Next this project installs', () => {
    expect(() => checkNextInternals(createRequire(path.join(ROOT, 'server.js')))).not.toThrow();
  });

  it('refuses another major, naming the installed version', () => {
    const requireFromBuild = standaloneWith('17.0.0', 'process.env.__NEXT_PRIVATE_STANDALONE_CONFIG');
    expect(() => checkNextInternals(requireFromBuild)).toThrow(UnsupportedNextError);
    expect(() => checkNextInternals(requireFromBuild)).toThrow(
      /^Next 17\.0\.0 is not supported by src\/server\/serving\/next-compat\/next-adapter\.ts: it was written for Next 16\./,
    );
  });

  it('refuses a Next whose config loader no longer reads the standalone config', () => {
    const requireFromBuild = standaloneWith('16.9.0', 'module.exports = {};');
    expect(() => checkNextInternals(requireFromBuild)).toThrow(
      'Next 16.9.0 is not supported by src/server/serving/next-compat/next-adapter.ts: its config loader no longer reads __NEXT_PRIVATE_STANDALONE_CONFIG.',
    );
  });

  it('reads a router state header as Next does: absent or well-formed passes, anything else does not', () => {
    const isValid = routerStateCheck(createRequire(path.join(ROOT, 'server.js')));
    expect(isValid(undefined)).toBe(true);
    expect(isValid(encodeURIComponent(JSON.stringify(['', { children: ['ja', {}] }])))).toBe(true);
    for (const header of ['[[[[', '%ZZ', '{}', '["x"]', '', 'x'.repeat(50_000), ['%5B%22%22%2C%7B%7D%5D', '%5B%22%22%2C%7B%7D%5D']]) {
      expect(isValid(header), String(header).slice(0, 40)).toBe(false);
    }
  });

  it('refuses a Next without the router state parser, naming the installed version', () => {
    const requireFromBuild = standaloneWith('16.9.0', 'process.env.__NEXT_PRIVATE_STANDALONE_CONFIG');
    expect(() => routerStateCheck(requireFromBuild)).toThrow(
      'Next 16.9.0 is not supported by src/server/serving/next-compat/next-adapter.ts: next/dist/server/app-render/parse-and-validate-flight-router-state.js no longer exports parseAndValidateFlightRouterState',
    );
  });
});
