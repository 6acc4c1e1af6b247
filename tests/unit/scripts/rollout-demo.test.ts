import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { run } from '../../../tools/lib/command.mjs';

const demo = (...args: string[]) =>
  run(process.execPath, [path.join(ROOT, 'scripts', 'rollout-demo.mjs'), ...args], { cwd: ROOT, check: false });

describe('npm run rollout:demo', () => {
  it.each([
    [['--drain'], '--drain runs on the cluster: add --cluster'],
    [['--canary'], '--canary runs on the cluster: add --cluster'],
    [['--cluster', '--drain', '--canary'], '--drain and --canary are two demos: choose one'],
  ])('refuses %j as a usage error before it starts anything', async (args, message) => {
    const { exitCode, stdout, stderr } = await demo(...args);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(new RegExp(`^rollout:demo: ${message.replace(/[-[\]]/g, '\\$&')}\n\nUsage: `));
  });
});
