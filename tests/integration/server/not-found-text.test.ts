import { describe, expect, it } from 'vitest';
import { request } from '../support/http';
import { rawRequest } from '../support/raw-http';
import { ANSWER_MODES } from '../support/answer-modes';
import { portOf, serverPerFile } from '../support/server-process';

// Every 404 page names the path asked for, whoever renders it, and never shows a character that
// would hide or reorder text (controls, bidi overrides) as it is.

/** The not-found message of a 404 page, as text. */
const messageOf = (html: string) => /<p class="[^"]*message">([^<]*)<\/p>/.exec(html)?.[1];

describe.each(ANSWER_MODES)('the path in a 404 page ($mode)', ({ env }) => {
  const server = serverPerFile(env);

  it.each([
    ['from the template', '/ja/no-such-page', 'ページが見つかりません：/ja/no-such-page'],
    ['rendered by Next (a query)', '/ja/no-such-page?x=1', 'ページが見つかりません：/ja/no-such-page'],
    ['of an API path the proxy passes by', '/api/x', 'Page not found: /api/x'],
    ['of the image optimiser, off', '/_next/image?url=%2Fx.png&w=64&q=75', 'Page not found: /_next/image'],
    ['of a framework path', '/_next/data/x', 'Page not found: /_next/data/x'],
  ])('%s is the real one: %s', async (_, path, message) => {
    const reply = await request(`${server.url}${path}`);
    expect(reply.status).toBe(404);
    expect(messageOf(reply.body)).toBe(message);
  });

  it.each([
    ['a NUL, from the template', '/ja/a%00b', 'ページが見つかりません：/ja/a%00b'],
    ['a NUL, rendered by Next', '/ja/a%00b?x', 'ページが見つかりません：/ja/a%00b'],
    ['a right-to-left override, from the template', '/docs/%E2%80%AEfdp', 'Page not found: /docs/%E2%80%AEfdp'],
    ['a right-to-left override, rendered by Next', '/api/%E2%80%AEfdp', 'Page not found: /api/%E2%80%AEfdp'],
    ['an escape sequence', '/ja/%1B%5B2J', 'ページが見つかりません：/ja/%1B[2J'],
  ])('shows %s escaped', async (_, path, message) => {
    const reply = await request(`${server.url}${path}`);
    expect(reply.status).toBe(404);
    expect(messageOf(reply.body)).toBe(message);
    expect(reply.body).not.toMatch(/[\u0000\u001b\u202e]/);
  });

  it.each([
    ['a raw NUL', '/api/a\u0000b'],
    ['a raw override (its UTF-8 bytes)', '/api/\u00e2\u0080\u00aefdp'],
  ])('never echoes %s in the target: the parser refuses it', async (_, path) => {
    const port = portOf(server);
    const reply = await rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(reply.status).toBe(400);
    expect(reply.body).toBe('Bad Request\n');
  });
});
