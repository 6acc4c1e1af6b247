import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { NODE_VERSION } from '../../../tools/node-runtime.mjs';
import { accessLine, logLine, request } from '../support/http';
import { loadPage, sendBeacon } from '../../../tools/telemetry-attack/requests.mjs';
import { jsonLines, startServer, type RunningServer } from '../support/server-process';

const ACCESS_FIELDS = ['request_id', 'method', 'path', 'route', 'status', 'duration_ms', 'bytes', 'locale', 'user_agent', 'remote_address'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('logs with the default settings', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('writes only JSON lines, and one complete access line per request', async () => {
    const sent: [string, string, number][] = [
      ['logs-root', '/', 200],
      ['logs-ja', '/ja', 200],
      ['logs-missing', '/ja/nope', 404],
      ['logs-redirect', '/en', 308],
    ];
    for (const [id, target, status] of sent) {
      const reply = await request(`${server.url}${target}`, { headers: { 'X-Request-Id': id, 'User-Agent': 'logs-test/1.0' } });
      expect(reply.status).toBe(status);
    }
    const { token } = await loadPage(server.url);
    const beacon = await sendBeacon(
      server.url,
      { token, events: [{ type: 'chunk_reload', reason: 'test' }] },
      { headers: { 'X-Request-Id': 'logs-beacon' } },
    );
    expect(beacon).toBe(204);

    for (const [id, target, status] of sent) {
      const line = await accessLine(server, id);
      for (const field of ACCESS_FIELDS) expect(line, `${target} lacks ${field}`).toHaveProperty(field);
      expect(line).toMatchObject({
        msg: 'request',
        level: 30,
        method: 'GET',
        path: target,
        status,
        user_agent: 'logs-test/1.0',
        remote_address: '127.0.0.1',
      });
      expect(typeof line.duration_ms).toBe('number');
      expect(typeof line.bytes).toBe('number');
    }
    expect(await accessLine(server, 'logs-root')).toMatchObject({ route: '/', locale: 'en' });
    expect(await accessLine(server, 'logs-ja')).toMatchObject({ route: '/[locale]', locale: 'ja' });
    expect(await accessLine(server, 'logs-missing')).toMatchObject({ route: 'not_found', locale: 'ja' });
    expect(await accessLine(server, 'logs-redirect')).toMatchObject({ route: 'redirect' });
    expect(await accessLine(server, 'logs-beacon')).toMatchObject({
      msg: 'request',
      level: 30,
      method: 'POST',
      route: '/api/telemetry',
      status: 204,
      bytes: 0,
    });

    expect(() => jsonLines(server)).not.toThrow();
    expect(server.lines().length).toBeGreaterThan(5);
    expect(server.stderr()).toBe('');
  });

  it('cuts a 2 000-character path to 512 characters in the log', async () => {
    const long = `/${'a'.repeat(1999)}`;
    expect((await request(`${server.url}${long}`, { headers: { 'X-Request-Id': 'logs-long' } })).status).toBe(404);

    const line = await accessLine(server, 'logs-long');
    expect(line.path).toBe(long.slice(0, 512));
  });

  it('echoes and logs a valid X-Request-Id', async () => {
    const reply = await request(`${server.url}/ja`, { headers: { 'X-Request-Id': 'abc-123' } });

    expect(reply.headers['x-request-id']).toBe('abc-123');
    expect(await accessLine(server, 'abc-123')).toMatchObject({ path: '/ja', status: 200 });
  });

  it.each([
    ['with spaces', 'bad id with spaces'],
    ['of 200 characters', 'q'.repeat(200)],
  ])('replaces an invalid X-Request-Id (%s) by a generated one, echoed and logged', async (_, offered) => {
    const reply = await request(`${server.url}/ja?case=${offered.length}`, { headers: { 'X-Request-Id': offered } });

    const generated = reply.headers['x-request-id'];
    expect(generated).toMatch(UUID);
    const line = await accessLine(server, generated as string);
    expect(line.path).toBe('/ja');
    expect(server.lines().some((text) => text.includes(offered))).toBe(false);
  });

  it('logs the socket address, not X-Forwarded-For, without TRUST_PROXY', async () => {
    await request(`${server.url}/ja`, { headers: { 'X-Request-Id': 'logs-xff-ignored', 'X-Forwarded-For': '203.0.113.9' } });

    expect((await accessLine(server, 'logs-xff-ignored')).remote_address).toBe('127.0.0.1');
  });

  it('announces start-up with the version, revision, Node version (the pinned one) and both ports', async () => {
    const build = JSON.parse(readFileSync(path.join(ROOT, '.next', 'standalone', 'build-info.json'), 'utf8')) as Record<string, string>;
    const ready = await logLine(server, (line) => line.msg === 'Meridian ready');

    expect(ready).toMatchObject({
      level: 30,
      version: build.version,
      revision: build.revision,
      // The suites' servers run on the Node production runs (tools/pins.mjs), whatever Node started the tests.
      node_version: `v${NODE_VERSION}`,
      port: Number(new URL(server.url).port),
      metrics_port: Number(new URL(server.metricsUrl).port),
    });
  });

  it('never writes cookies or credentials to stdout', async () => {
    const secrets = { Cookie: 'secret=1', Authorization: 'Bearer x' };
    await request(`${server.url}/ja`, { headers: { ...secrets, 'X-Request-Id': 'logs-secret-page' } });
    await request(`${server.url}/ja/nope`, { headers: { ...secrets, 'X-Request-Id': 'logs-secret-404' } });
    await request(`${server.url}/`, { headers: { ...secrets, 'X-Request-Id': 'logs-secret-root' } });
    await request(`${server.url}/api/telemetry`, {
      method: 'POST',
      headers: { ...secrets, 'X-Request-Id': 'logs-secret-beacon', 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin' },
      body: '{ not json',
    });
    for (const id of ['logs-secret-page', 'logs-secret-404', 'logs-secret-root', 'logs-secret-beacon']) await accessLine(server, id);

    const stdout = server.lines().join('\n');
    expect(stdout).not.toContain('secret=1');
    expect(stdout).not.toContain('Bearer x');
  });
});

describe('logs with TRUST_PROXY=loopback', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ TRUST_PROXY: 'loopback' });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('logs the right-most X-Forwarded-For entry that is not a trusted proxy, never a forged one to its left', async () => {
    await request(`${server.url}/ja`, {
      headers: { 'X-Request-Id': 'proxy-xff', 'X-Forwarded-For': '198.51.100.66, 203.0.113.7, 127.0.0.1' },
    });

    expect((await accessLine(server, 'proxy-xff')).remote_address).toBe('203.0.113.7');
  });

  it('falls back to the socket address when X-Forwarded-For is absent', async () => {
    await request(`${server.url}/ja`, { headers: { 'X-Request-Id': 'proxy-none' } });

    expect((await accessLine(server, 'proxy-none')).remote_address).toBe('127.0.0.1');
  });
});
