import path from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { run } from '../../../tools/lib/command.mjs';

const cluster = (...args: string[]) =>
  run(process.execPath, [path.join(ROOT, 'scripts', 'cluster.mjs'), ...args], { cwd: ROOT, check: false });

test('cluster:image without an image is refused as a usage error: one line, the usage, exit 2, nothing touched', async () => {
  const { exitCode, stdout, stderr } = await cluster('image');

  expect(exitCode).toBe(2);
  expect(stderr).toMatch(/^cluster: image: name at least one local Docker image\n\nUsage: npm run cluster:up/);
  expect(stdout).toBe('');
});
