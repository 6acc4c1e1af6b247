import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { RELAY_HEADER } from '@/server/serving/telemetry/beacon-relay';
import { eventually, logLine, request, scrape, valueOf } from '../support/http';
import { loadPage, send } from '../../../tools/telemetry-attack/requests.mjs';
import { startServer, type RunningServer } from '../support/server-process';

const running: RunningServer[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop('SIGKILL')));
});

async function start(env: Record<string, string>): Promise<RunningServer> {
  const server = await startServer(env);
  running.push(server);
  return server;
}

/** Resolves true once a new TCP connection to `url` is refused. */
function refuses(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/**
 * A telemetry POST over a raw socket, with only the first half of its body sent.
 * `head` resolves with the response head (or what arrived before the socket closed).
 */
async function startSlowBeacon(url: string): Promise<{ finish: () => void; head: Promise<string>; closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  const { token } = await loadPage(url);
  const body = JSON.stringify({ token, events: [{ type: 'chunk_reload', reason: 'slow client' }] });
  const half = Math.floor(body.length / 2);
  const socket: Socket = connect(Number(port), hostname);
  let received = '';
  socket.setEncoding('utf8');
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const head = new Promise<string>((resolve) => {
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.includes('\r\n\r\n')) resolve(received.slice(0, received.indexOf('\r\n\r\n')));
    });
    socket.once('close', () => resolve(received));
  });
  socket.on('error', () => {});
  socket.write(
    `POST /api/telemetry HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nSec-Fetch-Site: same-origin\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: slow-beacon\r\n\r\n${body.slice(0, half)}`,
  );
  return { head, closed, finish: () => socket.write(body.slice(half)) };
}

describe('graceful shutdown', () => {
  it('on SIGTERM: not ready at once, serving through the delay, then closed, in-flight requests finish, exit 0', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '1500', SHUTDOWN_TIMEOUT_MS: '10000' });
    const slow = await startSlowBeacon(server.url);
    // The slow request is in flight once the server counts it.
    await eventually(async () => expect(valueOf(await scrape(server), 'http_server_active_requests')).toBe(1));

    server.kill('SIGTERM');
    await eventually(async () => expect((await request(`${server.url}/readyz`)).status).toBe(503), 10_000, 20);
    const page = await request(`${server.url}/ja`);
    expect(page.status).toBe(200);
    expect(page.headers.connection).toBe('close');
    expect((await request(`${server.url}/healthz`)).status).toBe(200);

    await eventually(async () => expect(await refuses(server.url)).toBe(true));
    slow.finish();
    expect(await slow.head).toMatch(/^HTTP\/1\.1 204 /);

    expect(await server.exited).toBe(0);
    const draining = await logLine(server, (line) => line.msg === 'Shutting down: draining');
    expect(draining).toMatchObject({ signal: 'SIGTERM', delay_ms: 1500, timeout_ms: 10000 });
    expect(await logLine(server, (line) => line.msg === 'request' && line.request_id === 'slow-beacon')).toMatchObject({ status: 204 });
    // The in-flight request finished well within the timeout: nothing was left to cut.
    expect(server.lines().filter((line) => line.includes('Shutdown timeout'))).toEqual([]);
    expect(await logLine(server, (line) => line.msg === 'Shutdown complete')).toMatchObject({ drained: true });
  });

  it('keeps its port open past the delay while clients still open connections (a balancer slower than the delay), closing once they stop for a second', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '500', SHUTDOWN_TIMEOUT_MS: '20000' });

    server.kill('SIGTERM');
    await logLine(server, (line) => line.msg === 'Shutting down: draining');
    // A new connection every 200 ms for 3 s, as kube-proxy's rules not yet updated would send them.
    const answers: (number | string | undefined)[] = [];
    for (const began = Date.now(); Date.now() - began < 3000; await sleep(200)) {
      const answer = await send(`${server.url}/ja`);
      answers.push(answer.status || answer.failure);
    }
    expect(new Set(answers)).toEqual(new Set([200]));

    await eventually(async () => expect(await refuses(server.url)).toBe(true), 10_000);
    expect(await server.exited).toBe(0);
    const waited = await logLine(server, (line) => String(line.msg).startsWith('Clients still opened connections after the delay'));
    expect(waited.waited_ms).toBeGreaterThanOrEqual(2000);
    expect(await logLine(server, (line) => line.msg === 'Shutdown complete')).toMatchObject({ drained: true });
  });

  it("closes its port after the delay however often the kubelet's probes and other pods' relayed beacons come", async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '500', SHUTDOWN_TIMEOUT_MS: '20000' });

    server.kill('SIGTERM');
    await logLine(server, (line) => line.msg === 'Shutting down: draining');
    // Both straight to the pod, each on a new connection every 100 ms: neither is the balancer.
    const relay = { method: 'POST', headers: { 'Content-Type': 'application/json', [RELAY_HEADER]: 'mark' }, body: '{}' };
    let refused = false;
    for (const began = Date.now(); !refused && Date.now() - began < 6000; await sleep(100)) {
      const answers = [
        await send(`${server.url}/readyz`),
        await send(`${server.url}/healthz`),
        await send(`${server.url}/api/telemetry`, relay),
      ];
      refused = answers.some((answer) => answer.failure === 'ECONNREFUSED');
    }
    expect(refused).toBe(true);
    expect(await server.exited).toBe(0);
    expect(server.lines().filter((line) => line.includes('Clients still opened connections'))).toEqual([]);
  });

  it('answers /readyz "draining" during the delay', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '5000' });

    server.kill('SIGTERM');
    const reply = await eventually(async () => {
      const answer = await request(`${server.url}/readyz`);
      expect(answer.status).toBe(503);
      return answer;
    });
    expect(reply.body.trim()).toBe('draining');
    expect(reply.headers['cache-control']).toBe('no-store');
  });

  it('exits at once, with a non-zero code, on a second SIGTERM during the delay', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '30000', SHUTDOWN_TIMEOUT_MS: '10000' });

    server.kill('SIGTERM');
    await logLine(server, (line) => line.msg === 'Shutting down: draining');
    server.kill('SIGTERM');

    const code = await server.exited;
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(await logLine(server, (line) => line.msg === 'Second signal: exiting now')).toMatchObject({ signal: 'SIGTERM' });
    expect(server.lines().some((line) => line.includes('Shutdown complete'))).toBe(false);
  });

  it('treats SIGINT as SIGTERM: draining, then a clean exit 0', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '1500', SHUTDOWN_TIMEOUT_MS: '10000' });

    server.kill('SIGINT');
    await eventually(async () => expect((await request(`${server.url}/readyz`)).status).toBe(503), 10_000, 20);

    expect(await server.exited).toBe(0);
    expect(await logLine(server, (line) => line.msg === 'Shutting down: draining')).toMatchObject({ signal: 'SIGINT' });
    expect(await logLine(server, (line) => line.msg === 'Shutdown complete')).toMatchObject({ drained: true });
  });

  it('cuts requests still in flight after SHUTDOWN_TIMEOUT_MS, and still exits 0', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '0', SHUTDOWN_TIMEOUT_MS: '1000' });
    const slow = await startSlowBeacon(server.url);
    await eventually(async () => expect(valueOf(await scrape(server), 'http_server_active_requests')).toBe(1));

    server.kill('SIGTERM');

    expect(await server.exited).toBe(0);
    await slow.closed;
    expect(await slow.head).toBe('');
    expect(await logLine(server, (line) => line.msg === 'Shutdown timeout: cutting the requests still in flight')).toMatchObject({
      level: 40,
    });
    expect(await logLine(server, (line) => line.msg === 'Shutdown complete')).toMatchObject({ drained: false });
  });
});
