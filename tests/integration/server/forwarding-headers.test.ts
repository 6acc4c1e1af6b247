import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http';
import { startServer, type RunningServer } from '../support/server-process';

// A root request Next's proxy answers (a redirect by Accept-Language), which writes the
// language cookie and marks it Secure when X-Forwarded-Proto says https.
const FORGED = {
  'Accept-Language': 'ja',
  'X-Forwarded-Proto': 'https',
  'X-Forwarded-Host': 'evil.example',
  'X-Forwarded-For': '203.0.113.9',
};

describe('forwarding headers reach Next only from a trusted peer', () => {
  let untrusting: RunningServer;
  let trusting: RunningServer;
  beforeAll(async () => {
    [untrusting, trusting] = await Promise.all([startServer(), startServer({ TRUST_PROXY: 'loopback' })]);
  });
  afterAll(async () => {
    await Promise.all([untrusting?.stop(), trusting?.stop()]);
  });

  it("with TRUST_PROXY=false (the default), a visitor's X-Forwarded-Proto and -Host change nothing Next answers", async () => {
    const reply = await request(`${untrusting.url}/`, { headers: FORGED });
    expect(reply.status).toBe(307);
    expect(String(reply.headers['set-cookie'])).toMatch(/^i18n_redirected=ja;/);
    expect(String(reply.headers['set-cookie'])).not.toMatch(/Secure/);
    expect(String(reply.headers.location)).not.toContain('evil.example');
  });

  it('from a trusted peer, the same X-Forwarded-Proto makes the cookie Secure', async () => {
    const reply = await request(`${trusting.url}/`, { headers: FORGED });
    expect(reply.status).toBe(307);
    expect(String(reply.headers['set-cookie'])).toMatch(/Secure/);
    expect(String(reply.headers.location)).not.toContain('evil.example');
  });
});
