import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { startDaemon } from '../../../../tools/lib/daemon.mjs';

const node = (script: string) => ({ command: process.execPath, args: ['-e', script] });

/** Whether a process with this pid still runs. */
function alive(pid: number | undefined): boolean {
  try {
    process.kill(pid!, 0);
    return true;
  } catch {
    return false;
  }
}

test('a program that cannot start rejects naming the daemon and the program, with or without a readiness check', async () => {
  await expect(startDaemon({ name: 'ghost', command: 'no-such-program-here', args: [] })).rejects.toThrow(
    /^ghost: cannot start no-such-program-here: spawn no-such-program-here ENOENT/,
  );
  await expect(startDaemon({ name: 'ghost', command: 'no-such-program-here', args: [], ready: () => undefined })).rejects.toThrow(
    'ghost: cannot start no-such-program-here',
  );
});

test('a daemon that exits before it is ready rejects at once with its last output, shown once, and is polled no more', async () => {
  let checks = 0;
  const started = startDaemon({
    name: 'short-lived',
    ...node("console.log(['last', 'words'].join(' ')); process.exit(3)"),
    ready: () => {
      checks += 1;
      throw new Error('not ready');
    },
    readyTimeoutMs: 600_000,
  });

  await expect(started).rejects.toThrow(/^short-lived exited \(3\)\n--- short-lived's last output ---\nlast words\n$/);
  const checksWhenRejected = checks;
  await sleep(500);
  expect(checks).toBe(checksWhenRejected);
});

test('stop() ends a ready daemon with SIGTERM and resolves once it has exited', async () => {
  const daemon = await startDaemon({ name: 'idle', ...node('setInterval(() => {}, 1000)'), ready: () => undefined });
  expect(alive(daemon.pid)).toBe(true);

  await expect(daemon.stop()).resolves.toBeNull();

  expect(alive(daemon.pid)).toBe(false);
  await expect(daemon.exited).resolves.toBeNull();
});

test("a daemon's output is kept to its last 64 Ki characters per stream, or whole when asked", async () => {
  // 100 Ki characters on each stream, then a last line: more than is kept.
  const script =
    "const lots = 'x'.repeat(100 * 1024); process.stdout.write(lots + 'out end\\n'); process.stderr.write(lots + 'err end\\n')";
  const ended = (daemon: Awaited<ReturnType<typeof startDaemon>>) => {
    if (!daemon.stdout().endsWith('out end\n') || !daemon.stderr().endsWith('err end\n')) throw new Error('still writing');
  };

  const tail = await startDaemon({ name: 'chatty', ...node(`${script}; setInterval(() => {}, 1000)`), ready: ended });
  await tail.stop();
  expect(tail.stdout()).toHaveLength(64 * 1024);
  expect(tail.stderr()).toHaveLength(64 * 1024);
  expect(tail.output()).toHaveLength(64 * 1024);
  expect(tail.output()).toMatch(/(out|err) end\n$/);

  const whole = await startDaemon({ name: 'chatty', ...node(`${script}; setInterval(() => {}, 1000)`), ready: ended, keepAllOutput: true });
  await whole.stop();
  expect(whole.stdout()).toHaveLength(100 * 1024 + 'out end\n'.length);
  expect(whole.output()).toHaveLength(2 * (100 * 1024 + 'out end\n'.length));
});
