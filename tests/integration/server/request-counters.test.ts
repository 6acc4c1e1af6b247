import { describe, expect, it } from 'vitest';
import { eventually, parseSeries, request, scrape, valueOf } from '../support/http';
import { rawRequest } from '../support/raw-http';
import { jsonLines, portOf, serverPerFile } from '../support/server-process';

// The request counters tell the truth: what a revalidation is, and how many requests are in flight.

const server = serverPerFile();

const countOf = (text: string, labels: Record<string, string>) =>
  parseSeries(text)
    .filter(
      (series) =>
        series.name === 'http_server_request_duration_seconds_count' &&
        Object.entries(labels).every(([key, value]) => series.labels[key] === value),
    )
    .reduce((sum, series) => sum + series.value, 0);

describe('a page revalidation', () => {
  it.each([
    ['/ja', '/[locale]'],
    ['/', '/'],
  ])('of %s counts as %s with status 304, never as a redirect', async (path, route) => {
    const etag = String((await request(`${server.url}${path}`)).headers.etag);
    const before = await scrape(server);
    for (let index = 0; index < 5; index += 1) {
      expect((await request(`${server.url}${path}`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    }
    await eventually(async () => {
      const after = await scrape(server);
      expect(countOf(after, { route, status_code: '304' }) - countOf(before, { route, status_code: '304' })).toBe(5);
      expect(countOf(after, { route: 'redirect', status_code: '304' })).toBe(0);
    });
  });
});

describe('the in-flight gauge', () => {
  it('returns to 0 when connections close with requests queued behind a parse error, and those are logged at once', async () => {
    const connections = 50;
    const sent: string[] = [];
    await Promise.all(
      Array.from({ length: connections }, (_, index) => {
        const ids = [`pipelined-${index}-a`, `pipelined-${index}-b`];
        sent.push(...ids);
        // Next renders these: the first is still in flight when the garbage is parsed, the second queued behind it.
        const pipelined = ids.map((id) => `GET /ja/no-such-page?${id} HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\n\r\n`).join('');
        return rawRequest(portOf(server), `${pipelined}GARBAGE\r\n\r\n`);
      }),
    );
    await eventually(async () => {
      expect(valueOf(await scrape(server), 'http_server_active_requests')).toBe(0);
      const logged = new Set(jsonLines(server).map((line) => line.request_id));
      expect(sent.filter((id) => !logged.has(id))).toEqual([]);
    }, 10_000);
  });
});
