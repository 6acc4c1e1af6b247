import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type Reply, type RequestOptions } from '../support/http';
import { startServer, type RunningServer } from '../support/server-process';

const VALID = JSON.stringify({ events: [{ type: 'web_vital', name: 'LCP', value: 1200, locale: 'ja', route: '/ja' }] });
const JSON_TYPE = { 'Content-Type': 'application/json' };

/** Every status any test of this file saw, for the final no-5xx check. */
const seen: number[] = [];

async function beacon(server: RunningServer, options: RequestOptions = {}): Promise<Reply> {
  const reply = await request(`${server.url}/api/telemetry`, {
    method: 'POST',
    body: VALID,
    ...options,
    headers: { ...JSON_TYPE, ...options.headers },
  });
  seen.push(reply.status);
  return reply;
}

let proxied: RunningServer;
let direct: RunningServer;

beforeAll(async () => {
  // Trusting the loopback peer (the test, standing in for a proxy), each test sends from its own
  // X-Forwarded-For address, so each has a fresh budget.
  [proxied, direct] = await Promise.all([startServer({ TRUST_PROXY: 'loopback' }), startServer()]);
});

afterAll(async () => {
  await Promise.all([proxied?.stop(), direct?.stop()]);
});

describe('POST /api/telemetry through the real server', () => {
  it('answers 204 to a valid beacon, sent as JSON or as sendBeacon’s text/plain', async () => {
    const json = await beacon(proxied, { headers: { 'X-Forwarded-For': '198.51.100.1' } });
    const text = await beacon(proxied, { headers: { 'X-Forwarded-For': '198.51.100.1', 'Content-Type': 'text/plain;charset=UTF-8' } });

    expect(json.status).toBe(204);
    expect(json.body).toBe('');
    expect(json.headers['cache-control']).toBe('no-store');
    expect(text.status).toBe(204);
  });

  it('answers 415 to a body of another type', async () => {
    const reply = await beacon(proxied, {
      headers: { 'X-Forwarded-For': '198.51.100.2', 'Content-Type': 'application/x-www-form-urlencoded' },
    });

    expect(reply.status).toBe(415);
    expect(JSON.parse(reply.body)).toEqual({ error: 'unsupported_media_type' });
  });

  it('answers 405 to GET, naming POST as allowed', async () => {
    const reply = await beacon(proxied, { method: 'GET', body: undefined, headers: { 'X-Forwarded-For': '198.51.100.3' } });

    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('POST');
  });

  it('answers 413 to a 9 KiB body, announced or chunked', async () => {
    const big = JSON.stringify({ events: [{ type: 'chunk_reload', reason: 'x'.repeat(9 * 1024) }] });
    const announced = await beacon(proxied, { body: big, headers: { 'X-Forwarded-For': '198.51.100.4' } });
    const chunked = await beacon(proxied, { body: big, headers: { 'X-Forwarded-For': '198.51.100.4', 'Transfer-Encoding': 'chunked' } });

    expect(announced.status).toBe(413);
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toEqual({ error: 'payload_too_large' });
  });

  it('answers 400 to a body that is not JSON, or not a batch', async () => {
    const notJson = await beacon(proxied, { body: '{ not json', headers: { 'X-Forwarded-For': '198.51.100.5' } });
    const notBatch = await beacon(proxied, { body: '{"events":[{"type":"nope"}]}', headers: { 'X-Forwarded-For': '198.51.100.5' } });

    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body)).toEqual({ error: 'invalid_json' });
    expect(notBatch.status).toBe(400);
  });

  it('answers 429 to the 61st request in a minute from one socket address, with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 61; i += 1) statuses.push((await beacon(direct)).status);

    expect(statuses.slice(0, 60).every((status) => status === 204)).toBe(true);
    expect(statuses[60]).toBe(429);
    const refused = await beacon(direct);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(JSON.parse(refused.body)).toEqual({ error: 'rate_limited' });
  });

  it('does not let an untrusted X-Forwarded-For buy a fresh budget', async () => {
    // The budget of 127.0.0.1 on this server is spent by the previous test.
    expect((await beacon(direct, { headers: { 'X-Forwarded-For': '192.0.2.99' } })).status).toBe(429);
  });

  it('keeps a separate budget per client address with TRUST_PROXY=loopback, read from the right of X-Forwarded-For', async () => {
    const first: number[] = [];
    for (let i = 0; i < 61; i += 1) first.push((await beacon(proxied, { headers: { 'X-Forwarded-For': '203.0.113.10' } })).status);
    // A forged entry left of the client's address changes nothing: still 203.0.113.10, still over the limit.
    const forged = await beacon(proxied, { headers: { 'X-Forwarded-For': '203.0.113.99, 203.0.113.10' } });
    const second = await beacon(proxied, { headers: { 'X-Forwarded-For': '10.0.0.1, 203.0.113.20' } });

    expect(first.slice(0, 60).every((status) => status === 204)).toBe(true);
    expect(first[60]).toBe(429);
    expect(forged.status).toBe(429);
    expect(second.status).toBe(204);
  });

  it('never answered with a 5xx', () => {
    expect(seen.length).toBeGreaterThan(120);
    expect(seen.filter((status) => status >= 500)).toEqual([]);
  });
});
