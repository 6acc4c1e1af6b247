import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES, localizedPath } from '@/shared/locales';
import { logLine, request } from '../support/http';
import { startNextServer, type RunningNext } from '../support/next-server';
import { startServer, type RunningServer } from '../support/server-process';

/**
 * Our entry answers not-found page loads from a template it had Next render at
 * start-up. Next's own server.js, on the same build, renders every one: the two
 * must send the same page, in every locale: the proof that the template's
 * splicing (src/server/serving/not-found/not-found-template.ts) is right.
 * Payload rows may stream in any order, so they are compared as sets.
 */
function comparable(html: string): { markup: string; payloadRows: string[] } {
  const payload: string[] = [];
  const markup = html.replace(/<script>self\.__next_f\.push\(\[1,"(.*?)"\]\)<\/script>/g, (_, chunk: string) => {
    payload.push(chunk);
    return '';
  });
  return { markup, payloadRows: payload.join('').split('\\n').sort() };
}

let ours: RunningServer;
let next: RunningNext;
let nextUrl: string;

beforeAll(async () => {
  ours = await startServer();
  next = await startNextServer();
  nextUrl = next.url;
});

afterAll(async () => {
  next?.stop();
  await ours?.stop();
});

describe('not-found pages from a template', () => {
  it('has a template for every locale', async () => {
    const ready = await logLine(ours, (line) => line.msg === 'Meridian ready');
    expect(ready.not_found_templates).toEqual(['en', 'zh-CN', 'ja']);
  });

  it.each([
    '/nope',
    '/a/b/c/d',
    '/ja/nope',
    '/zh-CN/nope/deeper',
    "/zh-CN/a&b'c:d@e;f=g",
    '/ja/%E6%97%A5%E6%9C%AC%E8%AA%9E',
    '/%3Cscript%3Ealert(1)%3C/script%3E',
    '/ja/x%22y%27z%3E',
    '/%E2%80%A8%E2%80%A9',
    '/%zz-malformed',
    `/${'long'.repeat(80)}`,
    '/ja/e2e-fixtures',
    '/wp-admin/install.php%00',
    ...LOCALES.map((locale) => localizedPath(locale, '/every-locale/spliced')),
  ])('%s: the same page as Next renders', async (pathname) => {
    const headers = { 'accept-encoding': 'identity' };
    const [fromTemplate, rendered] = await Promise.all([
      request(`${ours.url}${pathname}`, { headers }),
      request(`${nextUrl}${pathname}`, { headers }),
    ]);
    expect(fromTemplate.status).toBe(404);
    expect(rendered.status).toBe(404);
    expect(fromTemplate.headers['content-type']).toBe(rendered.headers['content-type']);
    expect(fromTemplate.headers['cache-control']).toBe(rendered.headers['cache-control']);
    expect(comparable(fromTemplate.body)).toEqual(comparable(rendered.body));
  });

  it('answers HEAD with the headers only', async () => {
    const reply = await request(`${ours.url}/ja/nope`, { method: 'HEAD' });
    expect(reply.status).toBe(404);
    expect(Number(reply.headers['content-length'])).toBeGreaterThan(1000);
    expect(reply.body).toBe('');
  });
});
