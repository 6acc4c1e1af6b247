// One place in the load balancer's backend (a pod, in Kubernetes terms): its
// ports stay, the app process in it is replaced.
import { startApp } from '../lib/app-server.mjs';
import { freePort } from '../lib/ports.mjs';

/**
 * @typedef {{ id: string, entry: string }} Build
 */

/**
 * A slot named `name` on two free loopback ports; every process started in it
 * gets `env` on top of its ports.
 * @param {string} name
 * @param {Record<string, string>} env
 */
export async function appSlot(name, env) {
  const port = await freePort();
  const metricsPort = await freePort();
  /** @type {Awaited<ReturnType<typeof startApp>> | null} */
  let running = null;
  /** @type {Build | null} */
  let build = null;
  return {
    name,
    port,
    metricsTarget: `127.0.0.1:${metricsPort}`,
    /** The build running now, or null. */
    build: () => build,
    /**
     * Starts `next` and resolves once its /readyz answers 200.
     * @param {Build} next
     */
    async start(next) {
      running = await startApp({ port, entry: next.entry, env: { ...env, METRICS_PORT: String(metricsPort) } });
      build = next;
    },
    /** SIGTERM, then waits for the process to exit (the whole drain); resolves with its exit code. */
    async stop() {
      const code = (await running?.stop()) ?? null;
      running = null;
      build = null;
      return code;
    },
  };
}
