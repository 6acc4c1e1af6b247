import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLine, request } from '../support/http';
import { jsonLines, startServer, type RunningServer } from '../support/server-process';

describe('health probes with the default log level', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('/healthz answers 200 "ok" and is never cached', async () => {
    const reply = await request(`${server.url}/healthz`);

    expect(reply.status).toBe(200);
    expect(reply.body.trim()).toBe('ok');
    expect(reply.headers['cache-control']).toBe('no-store');
  });

  it('/readyz answers 200 "ready" once Next is prepared, and is never cached', async () => {
    const reply = await request(`${server.url}/readyz`);

    expect(reply.status).toBe(200);
    expect(reply.body.trim()).toBe('ready');
    expect(reply.headers['cache-control']).toBe('no-store');
  });

  it('does not log the probes at info', async () => {
    await request(`${server.url}/healthz`, { headers: { 'X-Request-Id': 'probe-healthz' } });
    await request(`${server.url}/readyz`, { headers: { 'X-Request-Id': 'probe-readyz' } });
    // Lines are written in order: once a later request is logged, the probes would have been.
    await request(`${server.url}/ja`, { headers: { 'X-Request-Id': 'marker-after-probes' } });
    await accessLine(server, 'marker-after-probes');

    const probeLines = jsonLines(server).filter((line) => line.msg === 'request' && (line.path === '/healthz' || line.path === '/readyz'));
    expect(probeLines).toEqual([]);
  });
});

describe('health probes with LOG_LEVEL=debug', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ LOG_LEVEL: 'debug' });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('logs each probe as an access line at debug level (20)', async () => {
    await request(`${server.url}/healthz`, { headers: { 'X-Request-Id': 'debug-healthz' } });
    await request(`${server.url}/readyz`, { headers: { 'X-Request-Id': 'debug-readyz' } });

    const healthz = await accessLine(server, 'debug-healthz');
    const readyz = await accessLine(server, 'debug-readyz');
    expect(healthz).toMatchObject({ level: 20, path: '/healthz', route: '/healthz', status: 200 });
    expect(readyz).toMatchObject({ level: 20, path: '/readyz', route: '/readyz', status: 200 });
  });

  it('still logs page requests at info level (30)', async () => {
    await request(`${server.url}/ja`, { headers: { 'X-Request-Id': 'debug-page' } });

    expect(await accessLine(server, 'debug-page')).toMatchObject({ level: 30, path: '/ja', status: 200 });
  });
});
