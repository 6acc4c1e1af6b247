// Polling for conditions that become true eventually (a process ready, a scrape taken, an engine answering),
// in tools/ because the machine set-up, the user commands and the tests all wait.

/**
 * Calls `check` until it resolves without throwing, and returns its value;
 * after `timeoutMs` rejects with `label` and the last failure.
 * @template T
 * @param {string} label
 * @param {() => T | Promise<T>} check
 * @param {{ timeoutMs?: number, intervalMs?: number }} [options]
 * @returns {Promise<T>}
 */
export async function waitFor(label, check, { timeoutMs = 10_000, intervalMs = 100 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`waited ${timeoutMs} ms for ${label}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
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
