// Polling for conditions that become true eventually (a process ready, a scrape taken, an engine answering),
// in tools/ because the machine set-up, the user commands and the tests all wait.
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Calls `check` until it resolves without throwing, and returns its value;
 * after `timeoutMs` rejects with `label` and the last failure. Once `signal` aborts, no
 * further check starts and it rejects with the signal's reason.
 * @template T
 * @param {string} label
 * @param {() => T | Promise<T>} check
 * @param {{ timeoutMs?: number, intervalMs?: number, signal?: AbortSignal }} [options]
 * @returns {Promise<T>}
 */
export async function waitFor(label, check, { timeoutMs = 10_000, intervalMs = 100, signal } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`waited ${timeoutMs} ms for ${label}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await sleep(intervalMs, undefined, { signal });
  }
}

/**
 * waitFor while a child process runs: once it exits, rejects naming it, and starts no further
 * check (a dead engine is not polled for a minute). Either way it rejects (exited or out of
 * time), the message ends with the child's last output.
 * @template T
 * @param {string} label
 * @param {() => T | Promise<T>} check
 * @param {{ name: string, exited: Promise<unknown[]>, output: () => string }} child `exited`: its `once(child, 'exit')`, its code and signal
 * @param {{ timeoutMs?: number, intervalMs?: number }} [options]
 * @returns {Promise<T>}
 */
export async function waitWhileRunning(label, check, child, options = {}) {
  const polling = new AbortController();
  const died = child.exited.then(([code, signal]) => {
    polling.abort();
    throw new Error(`${child.name} exited (${code ?? signal})`);
  });
  // It may exit long after the wait is over (stopped): never an unhandled rejection.
  died.catch(() => {});
  try {
    return await Promise.race([waitFor(label, check, { ...options, signal: polling.signal }), died]);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason}\n--- ${child.name}'s last output ---\n${child.output().slice(-4000)}`);
  } finally {
    polling.abort();
  }
}

/**
 * A check for waitFor: resolves once `url` answers 200, else throws its status (a redirect is
 * an answer, not followed).
 * @param {string} url
 */
export async function answers200(url) {
  const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(5000) });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status}`);
}
