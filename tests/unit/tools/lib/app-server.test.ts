import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startApp } from '../../../../tools/lib/app-server.mjs';
import { freePort } from '../../../../tools/lib/ports.mjs';

const dir = mkdtempSync(path.join(tmpdir(), 'meridian-app-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether anything accepts a connection on `port` of loopback. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

test('a server that never becomes ready is killed, not left running, when its wait gives up', async () => {
  // A server stuck as not ready: /readyz answers 503 for as long as it runs.
  const entry = path.join(dir, 'never-ready.cjs');
  writeFileSync(
    entry,
    "require('node:http').createServer((req, res) => res.writeHead(503).end()).listen(Number(process.env.PORT), '127.0.0.1');\n",
  );
  const port = await freePort();
  await expect(startApp({ port, entry, cwd: dir, readyTimeoutMs: 1000 })).rejects.toThrow(
    /app-server to be ready: http:\/\/127\.0\.0\.1:\d+\/readyz: HTTP 503/,
  );
  expect(await listening(port)).toBe(false);
});
