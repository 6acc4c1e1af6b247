import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralRangeStart, freePort, NODE_PORT_RANGE_START } from '../../../../tools/lib/ports.mjs';

const listenOn = (port: number) =>
  new Promise<net.Server>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });

describe('freePort', () => {
  it("hands out ports below the ephemeral range, where no outgoing connection takes its source port, and below Kubernetes' NodePorts", async () => {
    const ports = await Promise.all(Array.from({ length: 200 }, () => freePort()));
    expect(ports.every((port) => port >= 20_000 && port < ephemeralRangeStart() && port < NODE_PORT_RANGE_START)).toBe(true);
    expect(NODE_PORT_RANGE_START).toBe(30_000);
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
