// What a rollout runs in: app processes of one build in their slots, haproxy
// in front of them, Prometheus scraping them; started together, stopped together.
import { freePort } from '../lib/ports.mjs';
import { appSlot } from './app-slot.mjs';
import { buildsRunningNow } from './build-views.mjs';
import { startHaproxy } from './haproxy.mjs';
import { startPrometheus } from './prometheus.mjs';
import { waitFor } from '../lib/wait.mjs';

/**
 * Starts `slotCount` processes of `build` (each with `appEnv`), Prometheus and
 * haproxy, their files in `dir`, and resolves once haproxy has every process
 * in its rotation and Prometheus has scraped every one. Whatever started is
 * stopped again when a later step fails.
 * @param {{ build: import('./app-slot.mjs').Build, slotCount: number, appEnv: Record<string, string>, dir: string }} options
 */
export async function startStack({ build, slotCount, appEnv, dir }) {
  const slots = await Promise.all(Array.from({ length: slotCount }, (_, index) => appSlot(`app${index + 1}`, appEnv)));
  /** @type {(() => Promise<unknown>)[]} */
  const stops = [];
  const stop = async () => {
    for (const stopOne of stops.reverse()) await stopOne();
  };
  try {
    const prometheus = await startPrometheus({ dir, port: await freePort(), targets: slots.map((slot) => slot.metricsTarget) });
    stops.push(() => prometheus.stop());
    stops.push(() => Promise.all(slots.map((slot) => slot.stop())));
    await Promise.all(slots.map((slot) => slot.start(build)));
    const haproxy = await startHaproxy({ dir, port: await freePort(), servers: slots.map(({ name, port }) => ({ name, port })) });
    stops.push(() => haproxy.stop());
    for (const slot of slots) await haproxy.waitUntilServing(slot.name);
    await waitFor(`Prometheus to scrape ${build.id} on every process`, async () => {
      const running = await buildsRunningNow(prometheus);
      if (running[build.id] !== slotCount) throw new Error(`running: ${JSON.stringify(running)}`);
    });
    return { slots, haproxy, prometheus, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
