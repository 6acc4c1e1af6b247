import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { MeteredResponse } from '@/server/observability/metered-response';
import { createMetrics } from '@/server/observability/metrics';
import { observeRequest } from '@/server/observability/request-observer';
import { routeOf } from '@/server/serving/routing/request-route';

const BUILD = { buildId: 'b1', version: '0.1.0', revision: 'abc', builtAt: 0 };
let server: Server | undefined;

afterEach(() => {
  server?.close();
  server = undefined;
});

/** A server whose every request is observed and answered with `body`, and the lines its logger wrote. */
async function observedServer(body: string) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    }),
  );
  const metrics = createMetrics(BUILD);
  const closed: Promise<void>[] = [];
  server = createServer({ ServerResponse: MeteredResponse }, (req, res) => {
    closed.push(once(res, 'close').then(() => undefined));
    const route = routeOf(req);
    observeRequest({ logger, metrics }, req, res, 'request-1', route, '203.0.113.9', undefined);
    res.write(body.slice(0, 3));
    res.end(body.slice(3));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { 'user-agent': 'observer-test', ...headers } });
    req.end();
    const [res] = (await once(req, 'response')) as [NodeJS.ReadableStream];
    res.resume();
    await once(res, 'end');
    await Promise.all(closed);
    // Access lines are serialized once the turn's responses are out.
    await new Promise(setImmediate);
  };
  return { lines, metrics, get };
}

describe('observeRequest', () => {
  it('writes one complete access line when the response closes', async () => {
    const { lines, get } = await observedServer('héllo');
    await get('/ja/nope');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request',
        request_id: 'request-1',
        method: 'GET',
        path: '/ja/nope',
        route: 'other',
        status: 200,
        bytes: Buffer.byteLength('héllo'),
        locale: 'ja',
        user_agent: 'observer-test',
        remote_address: '203.0.113.9',
      }),
    ]);
    expect(lines[0]).not.toHaveProperty('aborted');
    expect(lines[0]?.duration_ms).toEqual(expect.any(Number));
  });

  it('logs probes at debug level, and files without a locale', async () => {
    const { lines, get } = await observedServer('ok');
    await get('/healthz');
    await get('/favicon.ico');
    expect(lines.map(({ level, route }) => ({ level, route }))).toEqual([
      { level: 20, route: '/healthz' },
      { level: 30, route: 'public_file' },
    ]);
    expect(lines[1]).not.toHaveProperty('locale');
  });

  it('counts the request by route template, and no longer in flight', async () => {
    const { metrics, get } = await observedServer('ok');
    await get('/ja');
    const text = await metrics.registry.metrics();
    expect(text).toContain('http_server_request_duration_seconds_count{method="GET",route="/[locale]",status_code="200"} 1');
    expect(text).toContain('http_server_active_requests 0');
  });

  it("counts the pages browsers load (their navigations), not other clients' requests, payloads or files", async () => {
    const { metrics, get } = await observedServer('ok');
    const navigation = { 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' };
    await get('/ja', navigation);
    await get('/', navigation);
    await get('/ja/nope', navigation);
    await get('/ja');
    // Over plain HTTP to a host of its own, a browser sends no Sec-Fetch-* headers.
    await get('/ja', { 'upgrade-insecure-requests': '1' });
    await get('/ja', { 'sec-fetch-dest': 'iframe', 'upgrade-insecure-requests': '1' });
    await get('/ja?_rsc=1x2y', navigation);
    await get('/ja', { 'sec-fetch-dest': 'empty', rsc: '1' });
    await get('/favicon.ico', navigation);
    await get('/healthz', navigation);
    const loads = (await metrics.registry.getSingleMetric('meridian_page_loads_total')?.get())?.values;
    expect(loads).toEqual([{ labels: {}, value: 4 }]);
  });
});
