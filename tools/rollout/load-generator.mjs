// Steady traffic through the load balancer, counted per second: answers, 5xx,
// connection errors, and which build answered each request.
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildIdOfAnswer } from './answered-build.mjs';
import { emptyCounts } from './traffic-totals.mjs';

/**
 * Pages served from memory and the file every open tab polls: what visitors send
 * during a rollout. `status` is the answer that counts as right (200 unless named).
 * @typedef {{ path: string, status?: number }} LoadTarget
 * @type {LoadTarget[]}
 */
const DEFAULT_TARGETS = [{ path: '/' }, { path: '/ja' }, { path: '/builds/latest.json' }];
/** A request still unanswered after this counts as a connection error. */
const REQUEST_TIMEOUT_MS = 10_000;
/** The failed requests kept one by one (the counts keep every one): enough to tell a stray one's cause. */
const FAILURES_KEPT = 100;

/** @typedef {{ second: number, path: string, failure: string }} Failure a failed request: its second, its path, its status or error code */

/** @param {number} second */
const newBucket = (second) => ({ second, ...emptyCounts() });

/**
 * Sends `ratePerSecond` GETs to `baseUrl`, spread evenly and whatever the
 * answers take (open loop: a slow server gets a queue, not a pause), over
 * keep-alive connections as browsers and proxies use them, or each on a new
 * connection with `keepAlive: false` (many visitors: a Service picks a pod per
 * connection, so this is what spreads requests by a canary's share of pods).
 * Seconds count from `startedAt`, the time it started. `targets` are sent in turn.
 * @param {{ baseUrl: string, ratePerSecond: number, targets?: LoadTarget[], keepAlive?: boolean }} options
 */
export function startLoad({ baseUrl, ratePerSecond, targets = DEFAULT_TARGETS, keepAlive = true }) {
  // The idle timeout is the client's, below haproxy's (30 s): a connection is
  // never reused at the moment the proxy closes it, which would count against
  // the rollout an error of this client.
  const agent = new Agent({ keepAlive, maxSockets: 64, timeout: 5_000 });
  const { hostname, port } = new URL(baseUrl);
  /** @type {ReturnType<typeof newBucket>[]} */
  const buckets = [];
  /** @type {Map<string, number>} */
  const errorCodes = new Map();
  /** @type {Failure[]} */
  const failures = [];
  /** @param {number} second @param {string} path @param {string} failure */
  const keepFailure = (second, path, failure) => {
    if (failures.length < FAILURES_KEPT) failures.push({ second, path, failure });
  };
  const inFlight = new Set();
  let sent = 0;
  const startedAt = Date.now();
  let stopAt = Infinity;

  /**
   * The bucket of the second request number `index` fell due in (a late tick does not move it).
   * @param {number} index
   */
  const bucketOf = (index) => {
    const second = Math.floor(index / ratePerSecond);
    for (let next = buckets.length; next <= second; next += 1) buckets.push(newBucket(next));
    // Filled up to `second` just above.
    return /** @type {ReturnType<typeof newBucket>} */ (buckets[second]);
  };

  function sendOne() {
    const bucket = bucketOf(sent);
    const next = targets[sent % targets.length];
    if (!next) throw new Error('load-generator: no targets to send');
    const { path: target, status: expected = 200 } = next;
    const requestPath = target === '/builds/latest.json' ? `${target}?${sent}` : target;
    sent += 1;
    bucket.requests += 1;
    const done = new Promise((resolve) => {
      const req = request({ hostname, port, path: requestPath, agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status === expected) {
            bucket.ok += 1;
            const build = buildIdOfAnswer(String(res.headers['content-type'] ?? ''), body);
            bucket.builds[build] = (bucket.builds[build] ?? 0) + 1;
          } else {
            if (status >= 500) bucket.serverErrors += 1;
            else bucket.otherStatuses += 1;
            keepFailure(bucket.second, target, String(status));
          }
          resolve(undefined);
        });
      });
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
      req.on('error', (/** @type {NodeJS.ErrnoException} */ error) => {
        bucket.connectionErrors += 1;
        const code = error.code ?? error.message;
        errorCodes.set(code, (errorCodes.get(code) ?? 0) + 1);
        keepFailure(bucket.second, target, code);
        resolve(undefined);
      });
      req.end();
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  }

  // Catches up on what fell due since the last tick, so timer jitter changes
  // the spacing of requests, never their number.
  const sendDue = () => {
    const due = Math.floor(((Math.min(Date.now(), stopAt) - startedAt) * ratePerSecond) / 1000);
    while (sent < due) sendOne();
  };
  const ticker = setInterval(sendDue, 5);

  const stopAtWholeSecond = async () => {
    stopAt = startedAt + Math.ceil((Date.now() - startedAt) / 1000) * 1000;
    await sleep(Math.max(0, stopAt - Date.now()));
    clearInterval(ticker);
    sendDue();
    await Promise.all(inFlight);
    agent.destroy();
    return { buckets, errorCodes: Object.fromEntries(errorCodes), failures };
  };
  /** @type {ReturnType<typeof stopAtWholeSecond> | null} */
  let stopped = null;

  return {
    startedAt,
    /**
     * Stops sending at the end of the current second (every bucket is a whole
     * second), waits for the answers still due, and returns the counts; the
     * same counts when called again.
     */
    stop: () => (stopped ??= stopAtWholeSecond()),
  };
}
