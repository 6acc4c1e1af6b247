import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralRangeStart, freePort } from '../../../../tools/lib/ports.mjs';

const listenOn = (port: number) =>
  new Promise<net.Server>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });

describe('freePort', () => {
  it('hands out ports below the ephemeral range, where no outgoing connection takes its source port', async () => {
    const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));
    expect(ports.every((port) => port >= 20_000 && port < ephemeralRangeStart())).toBe(true);
  });

  it('never hands out the same port twice, even while nothing listens on it yet', async () => {
    const ports = [];
    for (let i = 0; i < 500; i += 1) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('hands out ports a server can listen on', async () => {
    const server = await listenOn(await freePort());
    await new Promise((resolve) => server.close(resolve));
  });
});
