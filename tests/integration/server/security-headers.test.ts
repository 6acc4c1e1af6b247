import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http';
import { startServer, type RunningServer } from '../support/server-process';

/** A home page, a locale page, a 404 page rendered by Next, and a public file. */
const DOCUMENTS: [string, number][] = [
  ['/', 200],
  ['/ja', 200],
  ['/ja/nope', 404],
  ['/robots.txt', 200],
];

function varyTokens(headers: IncomingHttpHeaders): string[] {
  return String(headers.vary ?? '')
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter(Boolean);
}

/** The sources of a policy's script-src. */
const scriptSources = (csp: string) => (/script-src ([^;]*)/.exec(csp)?.[1] ?? '').split(' ');

/** Each inline script of a page: its text and its nonce attribute, if any. */
function inlineScripts(html: string): { text: string; nonce: string | undefined }[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes]) => !/\ssrc=/.test(attributes ?? ''))
    .map(([, attributes, text]) => ({ text: text ?? '', nonce: /\snonce="([^"]*)"/.exec(attributes ?? '')?.[1] }));
}

let server: RunningServer;
let withHsts: RunningServer;
let nextAnswersAll: RunningServer;

beforeAll(async () => {
  [server, withHsts, nextAnswersAll] = await Promise.all([
    startServer(),
    startServer({ HSTS: 'true' }),
    startServer({ NEXT_ANSWERS_ALL: 'true' }),
  ]);
});

afterAll(async () => {
  await Promise.all([server?.stop(), withHsts?.stop(), nextAnswersAll?.stop()]);
});

describe('security headers on documents', () => {
  it.each(DOCUMENTS)('%s carries the hardening headers and no X-Powered-By', async (target, status) => {
    const { status: actual, headers } = await request(`${server.url}${target}`);

    expect(actual).toBe(status);
    expect(headers['x-powered-by']).toBeUndefined();
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBeTruthy();
    expect(headers['permissions-policy']).toBeTruthy();
    const csp = String(headers['content-security-policy'] ?? '');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(scriptSources(csp)).not.toContain("'unsafe-inline'");
  });

  it.each(DOCUMENTS)('%s has no Strict-Transport-Security by default', async (target) => {
    const { headers } = await request(`${server.url}${target}`);

    expect(headers['strict-transport-security']).toBeUndefined();
  });

  it.each(DOCUMENTS)('%s has Strict-Transport-Security with HSTS=true', async (target) => {
    const { headers } = await request(`${withHsts.url}${target}`);

    expect(headers['strict-transport-security']).toMatch(/max-age=\d{8,}/);
  });

  it('keeps nosniff on a build script, compressed or not', async () => {
    const html = (await request(`${server.url}/ja`)).body;
    // Asset URLs carry the build id as a query (?dpl=…).
    const script = /<script src="(\/_next\/static\/[^"?]+\.js)(?:\?[^"]*)?"/.exec(html)?.[1];
    expect(script).toBeDefined();

    const variants: Record<string, string>[] = [{}, { 'Accept-Encoding': 'br' }];
    for (const headers of variants) {
      const reply = await request(`${server.url}${script}`, { headers });
      expect(reply.status).toBe(200);
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('answers a HEAD with the same headers as a GET', async () => {
    const { headers } = await request(`${server.url}/ja`, { method: 'HEAD' });

    expect(headers['x-frame-options']).toBe('DENY');
    expect(String(headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });
});

describe('a script policy without unsafe-inline', () => {
  it.each([
    ['/', {}],
    ['/ja', {}],
    ['/zh-CN', {}],
    ['/ja/no-such-page', {}],
    ['/no/such/page', {}],
    ['/ja/no-such-page?x=1', {}],
    ['/api/x', {}],
  ])('%s allows exactly its own inline scripts, by hash', async (path, headers) => {
    const reply = await request(`${server.url}${path}`, { headers: { 'Accept-Language': 'en', ...headers } });
    const scripts = inlineScripts(reply.body);
    expect(scripts.length).toBeGreaterThan(0);
    const hashes = scripts.map(({ text }) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
    expect(scriptSources(String(reply.headers['content-security-policy']))).toEqual(["'self'", ...hashes]);
  });

  // Handed to Next, a page gets the nonce of a render beside its prerendered scripts' hashes.
  it.each(['/', '/ja', '/zh-CN'])('%s sent by Next (NEXT_ANSWERS_ALL=true) allows its own inline scripts, by hash', async (path) => {
    const reply = await request(`${nextAnswersAll.url}${path}`, { headers: { 'Accept-Language': 'en' } });
    expect(reply.status).toBe(200);
    const scripts = inlineScripts(reply.body);
    expect(scripts.length).toBeGreaterThan(0);
    const hashes = scripts.map(({ text }) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
    const sources = scriptSources(String(reply.headers['content-security-policy']));
    expect(sources).toEqual(["'self'", expect.stringMatching(/^'nonce-[A-Za-z0-9+/=]+'$/), ...hashes]);
  });

  // A `$` in a path is one the not-found template cannot stand for (docs/architecture.md): Next renders it.
  it.each(['/ja/no-such-page$x', '/api/x$', '/e2e-fixtures/crash', '/e2e-fixtures/crash?mode=server'])(
    '%s, rendered by Next, carries a fresh nonce that every inline script has',
    async (path) => {
      const replies = await Promise.all([request(`${server.url}${path}`), request(`${server.url}${path}`)]);
      const nonces = replies.map((reply) => /'nonce-([^']+)'/.exec(String(reply.headers['content-security-policy']))?.[1]);
      expect(nonces[0]).toBeTruthy();
      expect(nonces[0]).not.toBe(nonces[1]);
      const scripts = inlineScripts(replies[0]?.body ?? '');
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter(({ nonce }) => nonce !== nonces[0])).toEqual([]);
    },
  );

  it('believes no policy a visitor sends to Next', async () => {
    const reply = await request(`${server.url}/ja/no-such-page$x`, {
      headers: { 'Content-Security-Policy': "script-src 'nonce-chosen'" },
    });
    expect(reply.body).not.toContain('nonce="chosen"');
  });
});

describe('Vary on the root', () => {
  it.each([
    ['a page load', {}],
    ['a compressed page load', { 'Accept-Encoding': 'br' }],
    ['a visitor who prefers Japanese (redirected)', { 'Accept-Language': 'ja' }],
    ['a router payload fetch (answered by Next)', { RSC: '1' }],
  ])('/ varies on Cookie and Accept-Language for %s', async (_, headers) => {
    const reply = await request(`${server.url}/`, { headers });

    expect(varyTokens(reply.headers)).toEqual(expect.arrayContaining(['cookie', 'accept-language']));
  });

  it('/ja does not vary on Accept-Language: its language is in its path', async () => {
    const reply = await request(`${server.url}/ja`);

    expect(varyTokens(reply.headers)).not.toContain('accept-language');
  });
});
