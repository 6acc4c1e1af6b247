// What the attacker sends, through node:http on a new connection each time (so a Service
// spreads them over its pods as it does visitors), from any local address it is given.
import { request } from 'node:http';

/** src/shared/page-view-token.ts's PAGE_VIEW_TIMING (plain Node runs this file; a unit test holds the two together). */
export const PAGE_VIEW_TIMING = 'pv';

/** The headers a browser's navigation sends, which make a page load one the server counts (and gives a token). */
const NAVIGATION = { 'Sec-Fetch-Dest': 'document', 'Sec-Fetch-Mode': 'navigate', 'Upgrade-Insecure-Requests': '1', Accept: 'text/html' };

/**
 * One request; resolves with its status and headers, or status 0 and why no answer came
 * (`failure`: the error's code, as ECONNREFUSED, ECONNRESET; ETIMEDOUT past `timeoutMs` of silence).
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: string, localAddress?: string, timeoutMs?: number }} [options]
 * @returns {Promise<{ status: number, headers: import('node:http').IncomingHttpHeaders, failure?: string }>}
 */
export function send(url, { method = 'GET', headers = {}, body, localAddress, timeoutMs = 10_000 } = {}) {
  return new Promise((resolve) => {
    /** @param {unknown} error */
    const failed = (error) =>
      resolve({ status: 0, headers: {}, failure: /** @type {NodeJS.ErrnoException} */ (error).code ?? String(error) });
    const req = request(url, { method, headers, localAddress, agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      res.on('error', failed);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer in ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
    req.on('error', failed);
    req.end(body);
  });
}

/**
 * The page-view token a Server-Timing header names, as the page's script reads it.
 * @param {string | undefined} header
 */
export function tokenOf(header) {
  const entry = (header ?? '').split(',').find((each) => each.trim().startsWith(`${PAGE_VIEW_TIMING};`));
  return /desc="([^"]*)"/.exec(entry ?? '')?.[1];
}

/**
 * The build a token names: its payload is signed, not hidden, so an attacker reads it too.
 * @param {string} token
 */
export function buildOfToken(token) {
  const payload = token.split('.')[1] ?? '';
  return Buffer.from(payload, 'base64url').toString().split('~')[1];
}

/**
 * Loads a page as a browser navigating does; resolves with its status (or why none came), token and the token's build.
 * @param {string} target the site's origin
 * @param {{ path?: string, localAddress?: string }} [options]
 */
export async function loadPage(target, { path = '/', localAddress } = {}) {
  const { status, headers, failure } = await send(new URL(path, target).href, { headers: NAVIGATION, localAddress });
  const token = tokenOf(/** @type {string | undefined} */ (headers['server-timing']));
  return { status, failure, token, build: token && buildOfToken(token) };
}

/**
 * POSTs a beacon body to the site's /api/telemetry; by default as the site's own pages do
 * (JSON, same origin), `headers` replacing any of that.
 * @param {string} target
 * @param {unknown} body
 * @param {{ headers?: Record<string, string>, localAddress?: string }} [options]
 */
export async function sendBeacon(target, body, { headers = {}, localAddress } = {}) {
  return (await postBeacon(target, body, { headers, localAddress })).status;
}

/**
 * sendBeacon's request, answering what `send` does: the status, or why none came.
 * @param {string} target
 * @param {unknown} body
 * @param {{ headers?: Record<string, string>, localAddress?: string }} [options]
 */
export function postBeacon(target, body, { headers = {}, localAddress } = {}) {
  const sameOrigin = { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin', Origin: new URL(target).origin };
  const sent = Object.fromEntries(Object.entries({ ...sameOrigin, ...headers }).filter(([, value]) => value !== ''));
  return send(new URL('/api/telemetry', target).href, {
    method: 'POST',
    headers: sent,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    localAddress,
  });
}
