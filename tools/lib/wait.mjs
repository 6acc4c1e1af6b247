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
 * Rejects once `child` exits, naming it and showing its output; never an unhandled rejection.
 * @param {string} label
 * @param {Promise<unknown[]>} exited the child's `once(child, 'exit')`: its code and signal
 * @param {() => string} output
 * @returns {Promise<never>}
 */
export function exitAsFailure(label, exited, output) {
  const failure = exited.then(([code, signal]) => {
    throw new Error(`${label} exited (${code ?? signal}):\n${output().slice(-4000)}`);
  });
  failure.catch(() => {});
  return failure;
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
