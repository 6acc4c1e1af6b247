import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { run } from '../../../tools/lib/command.mjs';

// A PATH of stand-ins only: docker knows no image, debootstrap answers --version and fails
// anything else, so the making starts and stops there, with no engine or network touched.
const bin = mkdtempSync(path.join(tmpdir(), 'meridian-node-base-bin-'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));
writeFileSync(path.join(bin, 'docker'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
writeFileSync(
  path.join(bin, 'debootstrap'),
  '#!/bin/sh\n[ "$1" = --version ] && exit 0\necho "stand-in debootstrap: no mirror here" >&2\nexit 1\n',
  { mode: 0o755 },
);

test('node tools/node-base.mjs says it is making the image on stderr: its stdout is the tag alone', async () => {
  const made = await run(process.execPath, [path.join(ROOT, 'tools', 'node-base.mjs')], { env: { PATH: bin }, check: false });

  expect(made.exitCode).not.toBe(0);
  expect(made.stderr).toContain('>>> node-base: making meridian-node-base:');
  expect(made.stderr).toContain('stand-in debootstrap: no mirror here');
  expect(made.stdout).toBe('');
});
