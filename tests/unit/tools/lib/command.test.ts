import { expect, test } from 'vitest';
import { onPath, run, runSync, succeeds } from '../../../../tools/lib/command.mjs';

test('a program that exits without reading its input succeeds by its exit status, the closed pipe is no error', async () => {
  // More than a pipe holds, so the write is still pending when `true` has exited.
  await expect(run('true', [], { input: 'x'.repeat(1 << 20) })).resolves.toEqual({ stdout: '', stderr: '', exitCode: 0 });
  await expect(run('false', [], { input: 'x'.repeat(1 << 20) })).rejects.toThrow('false  exited with 1');
});

test('a failure names the command, its exit and the last lines it printed; check: false hands back the exit instead', async () => {
  const script = "console.log('first'); console.error('last words'); process.exit(3)";
  await expect(run(process.execPath, ['-e', script])).rejects.toThrow(/-e .* exited with 3:\nfirst\nlast words$/);
  await expect(run(process.execPath, ['-e', script], { check: false })).resolves.toEqual({
    stdout: 'first\n',
    stderr: 'last words\n',
    exitCode: 3,
  });
  expect(() => runSync(process.execPath, ['-e', script])).toThrow(/exited with 3:\nfirst\nlast words$/);
  expect(runSync('cat', [], { input: 'fed in' }).stdout).toBe('fed in');
});

test('no shell: arguments reach the program as they are', async () => {
  const { stdout } = await run('printf', ['%s|', '$HOME', '`id`', 'a b']);
  expect(stdout).toBe('$HOME|`id`|a b|');
  expect(succeeds('test', ['-n', '$(false)'])).toBe(true);
  expect(succeeds('no-such-program-here', [])).toBe(false);
});

test('echo streams the output as it comes and still keeps it', async () => {
  const written: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof process.stdout.write;
  try {
    expect((await run('echo', ['streamed'], { echo: true })).stdout).toBe('streamed\n');
  } finally {
    process.stdout.write = write;
  }
  expect(written.join('')).toBe('streamed\n');
});

test('env is added to ours; with inheritEnv false it is all the program sees, for run and runSync alike', async () => {
  const printEnv = ['-e', 'console.log(JSON.stringify(process.env))'];
  const seen = (out: { stdout: string }) => JSON.parse(out.stdout) as Record<string, string>;
  const ours = Object.keys(process.env).length;
  expect(ours).toBeGreaterThan(0);

  const added = seen(await run(process.execPath, printEnv, { env: { ADDED: 'yes' } }));
  expect(added).toMatchObject({ ADDED: 'yes', PATH: process.env.PATH });

  const alone = { ONLY: 'this' };
  expect(seen(await run(process.execPath, printEnv, { env: alone, inheritEnv: false }))).toEqual(alone);
  expect(seen(runSync(process.execPath, printEnv, { env: alone, inheritEnv: false }))).toEqual(alone);
});

test('a program that cannot start: with check false, run and runSync both give a failed result naming why; with check, both throw', async () => {
  const failed = { stdout: '', stderr: expect.stringContaining('ENOENT') as string, exitCode: undefined };
  await expect(run('no-such-program-here', [], { check: false })).resolves.toEqual(failed);
  expect(runSync('no-such-program-here', [], { check: false })).toEqual(failed);
  await expect(run('no-such-program-here', [])).rejects.toThrow('ENOENT');
  expect(() => runSync('no-such-program-here', [])).toThrow('ENOENT');
});

test('onPath finds a program as `command -v` does, without a shell', () => {
  expect(onPath('ls')).toMatch(/\/ls$/);
  expect(onPath('no-such-program-here')).toBeNull();
});
