import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { waitWhileRunning } from '../../../../tools/lib/wait.mjs';

/** A child that prints a line and exits with `code` after `afterMs`. */
function shortLived(code: number, afterMs: number) {
  const child = spawn(process.execPath, ['-e', `console.log('engine log line'); setTimeout(() => process.exit(${code}), ${afterMs})`]);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { name: 'engine', exited: once(child, 'exit'), output: () => output };
}

describe('waitWhileRunning', () => {
  it('rejects with the child and its output once it exits, and checks no more', async () => {
    let checks = 0;
    const failing = () => {
      checks += 1;
      throw new Error('not yet');
    };
    await expect(
      waitWhileRunning('the engine to answer', failing, shortLived(3, 200), { timeoutMs: 30_000, intervalMs: 20 }),
    ).rejects.toThrow(/^engine exited \(3\)\n--- engine's last output ---\nengine log line\n$/);
    const checksAtExit = checks;
    await sleep(300);
    expect(checks).toBe(checksAtExit);
  });

  it("returns the check's value while the child runs", async () => {
    let checks = 0;
    const ready = () => {
      checks += 1;
      if (checks < 3) throw new Error('not yet');
      return 'ready';
    };
    await expect(waitWhileRunning('the engine to answer', ready, shortLived(0, 2000), { intervalMs: 20 })).resolves.toBe('ready');
  });

  it('times out naming what it waited for, the last failure and the output', async () => {
    const never = () => {
      throw new Error('docker info failed');
    };
    await expect(waitWhileRunning('the engine to answer', never, shortLived(0, 5000), { timeoutMs: 200, intervalMs: 20 })).rejects.toThrow(
      /^waited 200 ms for the engine to answer: docker info failed\n--- engine's last output ---\nengine log line\n$/,
    );
  });
});
