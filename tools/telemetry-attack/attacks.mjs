// The three ways a stranger can try to steer Meridian's browser signals (docs/security.md),
// each bounded in time and count, each tallying the answers it got. `npm run attack:telemetry`
// runs them against any site; the cluster's canary test runs them during a canary release.
import { setTimeout as sleep } from 'node:timers/promises';
import { buildOfToken, loadPage, postBeacon } from './requests.mjs';

/** The failure every attack claims: a visitor left on a broken page, which pages on-call at once. */
export const CLAIMED_FAILURE = { type: 'chunk_reload_blocked', reason: 'ChunkLoadError' };
/** Requests in flight at once, at most: the attacker stays bounded however slow the site. */
const MAX_IN_FLIGHT = 200;

/** @typedef {Record<string, Record<string, number>>} Tally answers by kind, then by status (with no answer, by why: ECONNRESET, ETIMEDOUT…) */

/**
 * Runs `attempt` `rate` times a second until `durationMs` passed or `signal` aborts.
 * @param {{ rate: number, durationMs: number, signal?: AbortSignal }} pace
 * @param {(index: number) => Promise<unknown>} attempt
 */
async function paced({ rate, durationMs, signal }, attempt) {
  const started = Date.now();
  const inFlight = new Set();
  for (let index = 0; Date.now() - started < durationMs && !signal?.aborted; index += 1) {
    if (inFlight.size < MAX_IN_FLIGHT) {
      const one = attempt(index).finally(() => inFlight.delete(one));
      inFlight.add(one);
    }
    const next = started + ((index + 1) * 1000) / rate;
    await sleep(Math.max(0, next - Date.now()));
  }
  await Promise.all(inFlight);
}

/** @param {Tally} tally @param {string} kind @param {number | string} status */
function count(tally, kind, status) {
  const ofKind = (tally[kind] ??= {});
  ofKind[status] = (ofKind[status] ?? 0) + 1;
}

/** @param {{ status: number, failure?: string }} answer its status, or why none came */
const answerOf = ({ status, failure }) => (status || failure) ?? 0;

/**
 * 1. Beacons from anywhere but the site's pages, at any rate, each with one forgery: another
 * site's page (text/plain or JSON, a real token even: the origin alone refuses it), a script
 * with no origin, no token, a made-up token, a real token edited to name the canary's build,
 * and a body naming the canary's build.
 * @param {{ target: string, rate: number, durationMs: number, canaryBuild?: string, signal?: AbortSignal }} options
 */
export async function forgeBeacons({ target, rate, durationMs, canaryBuild = 'canary', signal }) {
  /** @type {Tally} */
  const tally = {};
  const { token: realToken } = await loadPage(target);
  const events = [CLAIMED_FAILURE];
  const edited = (() => {
    const [keyId = '', payload = '', mac = ''] = (realToken ?? '..').split('.');
    const fields = Buffer.from(payload, 'base64url').toString().split('~');
    fields[1] = canaryBuild;
    return `${keyId}.${Buffer.from(fields.join('~')).toString('base64url')}.${mac}`;
  })();
  const evil = { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' };
  const forgeries = [
    ['cross-site text/plain', { token: realToken, events }, { ...evil, 'Content-Type': 'text/plain;charset=UTF-8' }],
    ['cross-site json', { token: realToken, events }, evil],
    ['cross-origin over http', { token: realToken, events }, { Origin: 'https://evil.example', 'Sec-Fetch-Site': '' }],
    ['no origin', { token: realToken, events }, { Origin: '', 'Sec-Fetch-Site': '' }],
    ['no token', { events }, {}],
    ['made-up token', { token: `x.${Buffer.from(`aaaaaaaaaaaaaaaa~${canaryBuild}~en~1~9999999999`).toString('base64url')}.y`, events }, {}],
    ['edited token', { token: edited, events }, {}],
    ['build in the body', { build: canaryBuild, events }, {}],
  ];
  await paced({ rate, durationMs, signal }, async (index) => {
    const [kind, body, headers] = /** @type {[string, object, Record<string, string>]} */ (forgeries[index % forgeries.length]);
    count(tally, kind, answerOf(await postBeacon(target, body, { headers })));
  });
  return tally;
}

/**
 * 2. Tokens harvested from page loads spread over the attack (`tokens` of them, so that pages
 * of every build the site serves meanwhile are among them), each reported with a failure once
 * and then replayed: every beacon again and again, at `rate` a second, reaching every pod.
 * @param {{ target: string, tokens: number, rate: number, durationMs: number, signal?: AbortSignal }} options
 */
export async function replayTokens({ target, tokens, rate, durationMs, signal }) {
  /** @type {Tally} */
  const tally = {};
  /** @type {string[]} */
  const harvested = [];
  const started = Date.now();
  const harvest = (async () => {
    for (let index = 0; index < tokens && !signal?.aborted; index += 1) {
      await sleep(Math.max(0, started + (index * durationMs) / tokens - Date.now()));
      const page = await loadPage(target);
      if (!page.token) {
        count(tally, 'page without token', answerOf(page));
        continue;
      }
      count(tally, 'first use', answerOf(await postBeacon(target, { token: page.token, events: [CLAIMED_FAILURE] })));
      harvested.push(page.token);
    }
  })();
  await paced({ rate, durationMs, signal }, async (index) => {
    const token = harvested[index % Math.max(1, harvested.length)];
    if (token) count(tally, 'replay', answerOf(await postBeacon(target, { token, events: [CLAIMED_FAILURE] })));
  });
  await harvest;
  return { tally, builds: harvested.map(buildOfToken) };
}

/**
 * 3. The residual: `sources` clients (local addresses, so per-address limits do not bind;
 * undefined: the machine's own), each loading a real page once a second and reporting a
 * failure with that page's token.
 * @param {{ target: string, sources: (string | undefined)[], durationMs: number, event?: object, signal?: AbortSignal }} options
 */
export async function failingPageLoads({ target, sources, durationMs, event = CLAIMED_FAILURE, signal }) {
  /** @type {Tally} */
  const tally = {};
  /** @type {Record<string, number>} */
  const pagesByBuild = {};
  await Promise.all(
    sources.map((localAddress) =>
      paced({ rate: 1, durationMs, signal }, async () => {
        const page = await loadPage(target, { localAddress });
        count(tally, 'page', answerOf(page));
        if (!page.token) return;
        pagesByBuild[page.build ?? '?'] = (pagesByBuild[page.build ?? '?'] ?? 0) + 1;
        count(tally, 'failure', answerOf(await postBeacon(target, { token: page.token, events: [event] }, { localAddress })));
      }),
    ),
  );
  return { tally, pagesByBuild };
}

/**
 * `count` loopback addresses past 127.0.0.1 (127.0.0.2, ...), which Linux answers from without
 * any set-up: one client each.
 * @param {number} count
 */
export function loopbackSources(count) {
  return Array.from({ length: count }, (_, index) => `127.0.${Math.floor((index + 2) / 256)}.${(index + 2) % 256}`);
}
