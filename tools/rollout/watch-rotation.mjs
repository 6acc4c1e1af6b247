// When haproxy takes each server out of its rotation and puts it back, as it happens.
import { setTimeout as sleep } from 'node:timers/promises';

/** How often to read haproxy's server states: a fifth of its check interval. */
const SAMPLE_MS = 100;

/**
 * Calls `onChange(server, status)` whenever a backend server's status changes
 * (`UP`, `DOWN`, and haproxy's transitional `UP 1/2`, `DOWN 1/1`...), until
 * stopped or until haproxy stops answering.
 * @param {{ statuses(): Promise<Map<string, string>> }} haproxy
 * @param {(server: string, status: string) => void} onChange
 */
export function watchRotation(haproxy, onChange) {
  const last = new Map();
  let watching = true;
  const sampling = (async () => {
    while (watching) {
      let statuses;
      try {
        statuses = await haproxy.statuses();
      } catch {
        return;
      }
      for (const [server, status] of statuses) {
        if (last.has(server) && last.get(server) !== status) onChange(server, status);
        last.set(server, status);
      }
      await sleep(SAMPLE_MS);
    }
  })();
  return {
    async stop() {
      watching = false;
      await sampling;
    },
  };
}
