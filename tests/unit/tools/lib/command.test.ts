import { expect, test } from 'vitest';
import { run } from '../../../../tools/lib/command.mjs';

test('a program that exits without reading its input succeeds by its exit status, the closed pipe is no error', async () => {
  // More than a pipe holds, so the write is still pending when `true` has exited.
  await expect(run('true', [], { input: 'x'.repeat(1 << 20) })).resolves.toEqual({ stdout: '', stderr: '' });
  await expect(run('false', [], { input: 'x'.repeat(1 << 20) })).rejects.toThrow('false  exited with 1');
});
