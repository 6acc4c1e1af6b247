// Alertmanager and Jaeger v2 as child processes on loopback, built from their Go modules
// (tools/pins.mjs) on first use: the engines the game day routes alerts through and
// sends traces to, beside the tests' Prometheus. JSON is YAML: Alertmanager's configuration
// is written as JSON; Jaeger's is the compose stack's file.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureBuild } from './cluster-binaries.mjs';
import { ROOT, waitForHttp } from './lib/app-server.mjs';

/** The engines built from their Go modules besides the cluster's own (CLUSTER_TOOLS). */
export const OBSERVABILITY_TOOLS = /** @type {const} */ (['alertmanager', 'jaeger']);

/**
 * Starts `binary` with `args`; resolves once `readyUrl` answers 200, or rejects with its
 * last output if it exits first. `stop()` sends SIGTERM and resolves once it has exited.
 * @param {string} name @param {string} binary @param {string[]} args @param {string} readyUrl
 * @param {Record<string, string>} [env] added to this process's environment
 */
async function startEngine(name, binary, args, readyUrl, env = {}) {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  const keep = (/** @type {Buffer} */ chunk) => (output = (output + chunk).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = once(child, 'exit');
  const diedEarly = exited.then(([code, signal]) => {
    throw new Error(`${name} exited (${code ?? signal}) before it was ready:\n${output}`);
  });
  diedEarly.catch(() => {});
  try {
    await Promise.race([waitForHttp(readyUrl, 30_000), diedEarly]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

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
