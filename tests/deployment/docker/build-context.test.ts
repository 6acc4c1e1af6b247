import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { run } from '../../../tools/lib/command.mjs';
import { localNodeBase } from '../support/docker-image';

const PROBE = 'meridian-context-probe:test';

let context: string[];

beforeAll(async () => {
  const base = await localNodeBase();
  // The same context `docker build .` sends, copied whole into an image to be listed.
  await run('docker', ['build', '--quiet', '--tag', PROBE, '--file', '-', ROOT], { input: `FROM ${base}\nCOPY . /context\n` });
  const { stdout } = await run('docker', ['run', '--rm', '--entrypoint', 'find', PROBE, '/context', '-mindepth', '1', '-maxdepth', '2']);
  context = stdout
    .split('\n')
    .filter(Boolean)
    .map((entry) => path.relative('/context', entry));
});

afterAll(async () => {
  await run('docker', ['image', 'rm', PROBE]).catch(() => {});
});

describe('the build context (.dockerignore)', () => {
  it('holds the sources the build needs', () => {
    expect(context).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'next.config.js', 'src', 'locales', 'public']));
  });

  it('keeps out the tests, the harness (tools/), the commands (scripts/), .git, node_modules and local builds', () => {
    const local = ['.git', 'node_modules', '.next', 'tests', 'tools', 'scripts', 'test-reports', 'test-results'];
    // A check on what is there to keep out: these are, in any checkout running this test.
    expect(local.filter((entry) => existsSync(path.join(ROOT, entry)))).toEqual(
      expect.arrayContaining(['.git', 'node_modules', 'tests', 'tools', 'scripts']),
    );
    for (const entry of local) expect(context).not.toContain(entry);
  });
});
