import { ensureDockerEngine } from '../../../tools/docker-engine.mjs';
import { helmBinary } from '../../../tools/kubernetes-clients.mjs';
import { ensureDebianPackages } from '../../../tools/debian-packages.mjs';

/**
 * Once, before the test files run in parallel: fetch and unpack helm (so no two files fetch
 * it at once), install promtool for the alert rules (so no two apt-get runs race for its
 * lock), and make a Docker engine answer; one this set-up started is stopped afterwards.
 */
export default async function setup(): Promise<() => Promise<void>> {
  helmBinary();
  ensureDebianPackages(['prometheus']);
  const engine = await ensureDockerEngine();
  return () => engine.stop();
}
