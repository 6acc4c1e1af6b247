import { ROOT } from '../../../tools/lib/app-server.mjs';
import { run } from '../../../tools/lib/command.mjs';
import { ensureCompose } from '../../../tools/docker-engine.mjs';
import { freePort } from '../../../tools/lib/ports.mjs';
import type { MeridianImage } from './docker-image';
import { withFileLock } from './file-lock';

/** Grafana and the tracing profile's images have no Debian stand-in: their configuration is checked statically. */
export const STACK_SERVICES = ['app-1', 'app-2', 'balancer', 'prometheus'];
const FILES = ['-f', 'docker-compose.yml', '-f', 'tests/deployment/support/compose.stand-ins.yml'];

export interface ComposeStack {
  balancerUrl: string;
  prometheusUrl: string;
  /** What the services (all, or those named) printed; the last lines only with `tail`. */
  logs(options?: { services?: string[]; tail?: number }): Promise<string>;
  /** Runs `command` in a service's container. */
  exec(service: string, command: string[]): Promise<void>;
  down(): Promise<void>;
}

/**
 * docker-compose.yml up, as users run it but for the images no registry here
 * serves (tests/deployment/support/compose.stand-ins.yml) and on free ports.
 */
export async function startStack(image: MeridianImage): Promise<ComposeStack> {
  const [command, ...prefix] = ensureCompose() as [string, ...string[]];
  const ports = { MERIDIAN_HTTP_PORT: await freePort(), PROMETHEUS_PORT: await freePort() };
  const env = {
    ...process.env,
    ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
    MERIDIAN_IMAGE: image.name,
    STAND_IN_BASE: image.nodeImage,
  };
  const project = `meridian-test-${process.pid}`;
  const compose = (args: string[]) => run(command, [...prefix, '--project-name', project, ...FILES, ...args], { cwd: ROOT, env });

  await withFileLock('meridian-docker-image', () => compose(['build', 'balancer', 'prometheus']));
  const down = async () => {
    await compose(['down', '--volumes', '--remove-orphans']);
  };
  await compose(['up', '--detach', '--no-build', ...STACK_SERVICES]).catch(async (error: unknown) => {
    await down();
    throw error;
  });
  return {
    balancerUrl: `http://127.0.0.1:${ports.MERIDIAN_HTTP_PORT}`,
    prometheusUrl: `http://127.0.0.1:${ports.PROMETHEUS_PORT}`,
    logs: async ({ services = [], tail } = {}) =>
      (await compose(['logs', '--no-color', ...(tail ? ['--tail', String(tail)] : []), ...services])).stdout,
    exec: async (service, command) => {
      await compose(['exec', '-T', service, ...command]);
    },
    down,
  };
}
