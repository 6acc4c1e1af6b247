import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startLoad } from '../../../../tools/rollout/load-generator.mjs';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A server on loopback: `/` answers 200, `/ja` 503, and `/reset` has its connection destroyed. */
async function flakySite(): Promise<string> {
  server = createServer((req, res) => {
    if (req.url === '/reset') return req.socket.destroy();
    res.statusCode = req.url === '/ja' ? 503 : 200;
    res.end('ok');
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

describe('startLoad', () => {
  it('keeps each failed request with its second, its path and what failed, besides the counts', async () => {
    const load = startLoad({
      baseUrl: await flakySite(),
      ratePerSecond: 30,
      targets: [{ path: '/' }, { path: '/ja' }, { path: '/reset' }],
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const traffic = await load.stop();
    const totals = traffic.buckets.reduce(
      (sum, bucket) => ({ server: sum.server + bucket.serverErrors, connection: sum.connection + bucket.connectionErrors }),
      { server: 0, connection: 0 },
    );
    expect(totals.server).toBeGreaterThan(0);
    expect(traffic.failures.filter((failure) => failure.path === '/ja')).toHaveLength(totals.server);
    expect(traffic.failures.filter((failure) => failure.path === '/reset')).toHaveLength(totals.connection);
    expect(new Set(traffic.failures.map((failure) => failure.failure))).toEqual(new Set(['503', 'ECONNRESET']));
    for (const failure of traffic.failures) expect(failure.second).toBeLessThan(traffic.buckets.length);
    // Only failures are kept one by one.
    expect(traffic.failures.some((failure) => failure.path === '/')).toBe(false);
  });

  it('keeps the first 100 failures one by one, and counts all of them', async () => {
    const load = startLoad({ baseUrl: await flakySite(), ratePerSecond: 200, targets: [{ path: '/ja' }] });
    await new Promise((resolve) => setTimeout(resolve, 700));
    const traffic = await load.stop();
    const serverErrors = traffic.buckets.reduce((sum, bucket) => sum + bucket.serverErrors, 0);
    expect(serverErrors).toBeGreaterThan(100);
    expect(traffic.failures).toHaveLength(100);
  });
});
