// Alertmanager and Jaeger v2 as child processes on loopback, built from their Go modules
// (tools/pins.mjs) on first use: the engines the game day routes alerts through and
// sends traces to, beside the tests' Prometheus. JSON is YAML: Alertmanager's configuration
// is written as JSON; Jaeger's is the compose stack's file.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureBuild } from './cluster-binaries.mjs';
import { ROOT } from './lib/app-server.mjs';
import { startDaemon } from './lib/daemon.mjs';
import { answers200 } from './lib/wait.mjs';

/** The engines built from their Go modules besides the cluster's own (CLUSTER_TOOLS). */
export const OBSERVABILITY_TOOLS = /** @type {const} */ (['alertmanager', 'jaeger']);

/**
 * Starts `binary` with `args` (and `env` on top of this process's); resolves once `readyUrl`
 * answers 200, or rejects with its last output if it exits first.
 * @param {string} name @param {string} binary @param {string[]} args @param {string} readyUrl
 * @param {Record<string, string>} [env]
 */
const startEngine = (name, binary, args, readyUrl, env = {}) =>
  startDaemon({ name, command: binary, args, env: { ...process.env, ...env }, ready: () => answers200(readyUrl) });

/**
 * Alertmanager on `127.0.0.1:<port>` with `config` (an Alertmanager configuration
 * object), its state in `dir`; alone (no peers: its cluster port stays closed).
 * @param {{ dir: string, port: number, config: object, log?: (line: string) => void }} options
 */
export async function startAlertmanager({ dir, port, config, log = () => {} }) {
  const binary = path.join(ensureBuild('alertmanager', log), 'alertmanager');
  mkdirSync(dir, { recursive: true });
  const configFile = path.join(dir, 'alertmanager.yml');
  writeFileSync(configFile, JSON.stringify(config));
  const url = `http://127.0.0.1:${port}`;
  const engine = await startEngine(
    'alertmanager',
    binary,
    [
      `--config.file=${configFile}`,
      `--storage.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      // One instance: no gossip port on every interface.
      '--cluster.listen-address=',
      '--log.level=warn',
    ],
    `${url}/-/ready`,
  );
  return { url, ...engine };
}

/** The trace collector's configuration, shared with the compose stack's tracing profile. */
export const COLLECTOR_CONFIG = path.join(ROOT, 'docker', 'otel', 'collector.yaml');

/**
 * Jaeger v2 keeping traces in memory, configured by docker/otel/collector.yaml (the compose
 * stack's file) with its listening addresses set: OTLP/HTTP in on `<otlpHost>:<otlpPort>`
 * (loopback, or the cluster node's address so that pods reach it), its query API (and
 * placeholder UI) on `127.0.0.1:<queryPort>` and its gRPC query API on
 * `127.0.0.1:<queryGrpcPort>`; nothing else listens.
 * @param {{ otlpHost?: string, otlpPort: number, queryPort: number, queryGrpcPort: number, log?: (line: string) => void }} options
 */
export async function startJaeger({ otlpHost = '127.0.0.1', otlpPort, queryPort, queryGrpcPort, log = () => {} }) {
  const binary = path.join(ensureBuild('jaeger', log), 'jaeger');
  const queryUrl = `http://127.0.0.1:${queryPort}`;
  const engine = await startEngine('jaeger', binary, ['--config', COLLECTOR_CONFIG], `${queryUrl}/api/services`, {
    OTLP_HTTP_ENDPOINT: `${otlpHost}:${otlpPort}`,
    JAEGER_QUERY_HTTP_ENDPOINT: `127.0.0.1:${queryPort}`,
    JAEGER_QUERY_GRPC_ENDPOINT: `127.0.0.1:${queryGrpcPort}`,
    JAEGER_LOG_LEVEL: 'warn',
  });
  return { otlpUrl: `http://${otlpHost}:${otlpPort}`, queryUrl, ...engine };
}
