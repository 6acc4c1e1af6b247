import { beforeAll, describe, expect, it } from 'vitest';
import { comparableHeaders } from '../support/head-parity';
import { buildScriptOf, request } from '../support/http';
import { serverPerFile } from '../support/server-process';

// RFC 9110 §9.3.2: a HEAD gets the headers a GET would, without the body, whoever answers.

const server = serverPerFile();
let script: string;

beforeAll(async () => {
  script = await buildScriptOf(server);
});

/** `SCRIPT` stands for a build script of the running build, found once the server is up. */
const CASES: [string, string, Record<string, string>][] = [
  ['a page from memory', '/ja', { 'Accept-Encoding': 'br' }],
  ['the root, redirected by language (Next)', '/', { 'Accept-Language': 'ja' }],
  ['a locale redirect (ours)', '/en/x', {}],
  ['a 404 from the template', '/ja/no-such-page', {}],
  ['a 404 Next renders, compressed', '/ja/no-such-page?x=1', { 'Accept-Encoding': 'gzip' }],
  ['a 404 Next renders for an API path', '/api/x', { 'Accept-Encoding': 'gzip' }],
  ['a missing file (Next)', '/missing.json', { 'Accept-Encoding': 'gzip' }],
  ['the image optimiser, off (Next)', '/_next/image?url=%2Fx.png&w=64&q=75', {}],
  ['a router payload (Next)', '/ja', { RSC: '1', 'Accept-Encoding': 'gzip' }],
  ['a build script, brotli', 'SCRIPT', { 'Accept-Encoding': 'br' }],
  ['a build script, gzip', 'SCRIPT', { 'Accept-Encoding': 'gzip' }],
  ['a chunk of another build', '/_next/static/chunks/gone.js', {}],
  ['a public file, gzip', '/favicon.ico', { 'Accept-Encoding': 'gzip' }],
  ['the crawler file', '/robots.txt', {}],
  ['the sitemap, off', '/sitemap.xml', {}],
  ['the latest build', '/builds/latest.json', {}],
  ['a build manifest that does not exist', '/builds/meta/none.json', {}],
  ['liveness', '/healthz', {}],
  ['readiness', '/readyz', {}],
  ['metrics, not here', '/metrics', {}],
  ['a 405 (HEAD is refused on the beacon endpoint)', '/api/telemetry', {}],
  ['a 406', '/ja', { 'Accept-Encoding': 'identity;q=0' }],
  ['a bad Host', '/ja', { Host: 'a b' }],
];

describe('HEAD', () => {
  it.each(CASES)('%s: the same headers as GET, and no body', async (_, target, headers) => {
    const path = target === 'SCRIPT' ? script : target;
    const get = await request(`${server.url}${path}`, { headers });
    const head = await request(`${server.url}${path}`, { method: 'HEAD', headers });
    expect(head.status).toBe(get.status);
    expect(head.body).toBe('');
    expect(comparableHeaders(head.headers)).toEqual(comparableHeaders(get.headers));
  });
});
