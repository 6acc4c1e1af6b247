import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkedModuleVersion } from '../../../tools/cluster-binaries.mjs';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { runSync } from '../../../tools/lib/command.mjs';
import { cacheDir, CACHE_ROOT, moduleVersion, PINS, type Pin } from '../../../tools/pins.mjs';
import { TABLE_END, TABLE_START, withPinsTable } from '../../../tools/pins-table/pins-table.mjs';

const pins = Object.entries(PINS) as [string, Pin][];

/**
 * Where a pinned version may appear besides tools/pins.mjs: the means of getting it, each
 * checked against the pin below (go.mod, package.json), and lock files listing every dependency.
 */
const MEANS = /(^|\/)(go\.mod|go\.sum|package\.json|package-lock\.json)$/;
const BINARY = /\.(png|jpe?g|gif|ico|webp|avif|woff2?|ttf|otf|pdf|zip|gz|tgz)$/i;

/** The version as written (1.2.3, v1.2.3), not inside a longer number or an address. */
const versionToken = (version: string) => new RegExp(`(?<![\\d.])v?${version.replaceAll('.', '\\.')}(?!\\d|\\.\\d)`);

/** Tracked text files but the manifest and the means, with docs/cluster.md's generated table left out. */
function trackedTexts(): { file: string; lines: string[] }[] {
  const files = runSync('git', ['ls-files', '-z'], { cwd: ROOT }).stdout.split('\0').filter(Boolean);
  return files
    .filter((file) => file !== 'tools/pins.mjs' && !MEANS.test(file) && !BINARY.test(file))
    .filter(
      (file) => statSync(path.join(ROOT, file), { throwIfNoEntry: false })?.isFile() && statSync(path.join(ROOT, file)).size < 2_000_000,
    )
    .map((file) => {
      let text = readFileSync(path.join(ROOT, file), 'utf8');
      if (file === 'docs/cluster.md') text = text.slice(0, text.indexOf(TABLE_START)) + text.slice(text.indexOf(TABLE_END));
      return { file, lines: text.split('\n') };
    });
}

describe('tools/pins.mjs: every pinned tool in one place', () => {
  it('states no pinned version anywhere else in the repository', () => {
    const texts = trackedTexts();
    const restated = pins.flatMap(([tool, pin]) => {
      const versions = [pin.version, ...('go' in pin.from ? [moduleVersion(pin).replace(/^v/, '')] : [])];
      return versions.flatMap((version) =>
        texts.flatMap(({ file, lines }) =>
          lines.flatMap((line, index) => (versionToken(version).test(line) ? [`${file}:${index + 1}: ${tool} ${version}`] : [])),
        ),
      );
    });
    expect(restated, 'state these versions in tools/pins.mjs only, and read them from there').toEqual([]);
  });

  it("is what each Go module's go.mod requires", () => {
    for (const [tool, pin] of pins) if ('go' in pin.from) expect(() => checkedModuleVersion(pin), tool).not.toThrow();
  });

  it('refuses a go.mod that requires another version, naming both', () => {
    expect(() => checkedModuleVersion({ ...PINS.coredns, version: '1.99.0' })).toThrow(
      `cluster: tools/kubernetes/go.mod requires github.com/coredns/coredns ${moduleVersion(PINS.coredns)}, but tools/pins.mjs pins v1.99.0; move both together`,
    );
  });

  it("is package.json's exact version of each npm devDependency it pins", () => {
    const { devDependencies } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    for (const [tool, pin] of pins) {
      if ('npm' in pin.from && pin.from.npm.devDependency) expect(devDependencies[pin.from.npm.name], tool).toBe(pin.version);
    }
  });

  it('says why each tool is at its version, and caches each under the one root, by version', () => {
    for (const [tool, pin] of pins) {
      expect(pin.why.length, tool).toBeGreaterThan(40);
      if (pin.cache) expect(cacheDir(tool as keyof typeof PINS, 'k')).toBe(path.join(CACHE_ROOT, pin.cache, `${pin.version}-k`));
    }
  });

  it("is what docs/cluster.md's versions table shows (npm run pins:table)", () => {
    const doc = readFileSync(path.join(ROOT, 'docs', 'cluster.md'), 'utf8');
    expect(doc, 'run `npm run pins:table`').toBe(withPinsTable(doc));
  });
});
