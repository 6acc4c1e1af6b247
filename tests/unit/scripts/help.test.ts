import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { run } from '../../../tools/lib/command.mjs';

const COMMANDS = readdirSync(path.join(ROOT, 'scripts')).filter((file) => file.endsWith('.mjs'));

// One CLI style (tools/lib/cli.mjs): parseArgs, strict, with --help on every command.
describe.each(COMMANDS)('scripts/%s', (file) => {
  const command = (...args: string[]) => run(process.execPath, [path.join(ROOT, 'scripts', file), ...args], { cwd: ROOT, check: false });

  it('prints its usage on --help and exits 0, doing nothing else', async () => {
    const { exitCode, stdout, stderr } = await command('--help');
    expect(exitCode, stderr).toBe(0);
    expect(stdout).toMatch(/^Usage: /);
    expect(stderr).toBe('');
  });

  it('refuses a flag it does not know, naming it', async () => {
    const { exitCode, stderr } = await command('--no-such-flag');
    expect(exitCode).not.toBe(0);
    expect(stderr).toContain("Unknown option '--no-such-flag'");
  });
});
