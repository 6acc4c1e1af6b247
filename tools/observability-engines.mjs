// Alertmanager and Jaeger v2 as child processes on loopback, built from their Go modules
// (tools/pins.mjs) on first use: the engines the game day routes alerts through and
// sends traces to, beside the tests' Prometheus. JSON is YAML: their configurations are
// written as JSON.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureBuild } from './cluster-binaries.mjs';
import { waitForHttp } from './lib/app-server.mjs';

/** The engines built from their Go modules besides the cluster's own (CLUSTER_TOOLS). */
export const OBSERVABILITY_TOOLS = /** @type {const} */ (['alertmanager', 'jaeger']);

/**
 * Starts `binary` with `args`; resolves once `readyUrl` answers 200, or rejects with its
 * last output if it exits first. `stop()` sends SIGTERM and resolves once it has exited.
 * @param {string} name @param {string} binary @param {string[]} args @param {string} readyUrl
 */
async function startEngine(name, binary, args, readyUrl) {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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

/**
 * Jaeger v2 keeping traces in memory: OTLP/HTTP in on `127.0.0.1:<otlpPort>`, its query
 * API (and placeholder UI) on `127.0.0.1:<queryPort>`; nothing else listens (no gRPC
 * receiver, no sampling or health endpoints, its own metrics off).
 * @param {{ dir: string, otlpPort: number, queryPort: number, queryGrpcPort: number, log?: (line: string) => void }} options
 */
export async function startJaeger({ dir, otlpPort, queryPort, queryGrpcPort, log = () => {} }) {
  const binary = path.join(ensureBuild('jaeger', log), 'jaeger');
  mkdirSync(dir, { recursive: true });
  const config = {
    service: {
      extensions: ['jaeger_storage', 'jaeger_query'],
      pipelines: { traces: { receivers: ['otlp'], processors: ['batch'], exporters: ['jaeger_storage_exporter'] } },
      telemetry: { metrics: { level: 'none' }, logs: { level: 'warn' } },
    },
    extensions: {
      jaeger_storage: { backends: { memory: { memory: { max_traces: 100_000 } } } },
      jaeger_query: {
        storage: { traces: 'memory' },
        http: { endpoint: `127.0.0.1:${queryPort}` },
        grpc: { endpoint: `127.0.0.1:${queryGrpcPort}` },
      },
    },
    receivers: { otlp: { protocols: { http: { endpoint: `127.0.0.1:${otlpPort}` } } } },
    processors: { batch: { timeout: '200ms' } },
    exporters: { jaeger_storage_exporter: { trace_storage: 'memory' } },
  };
  const configFile = path.join(dir, 'jaeger.yaml');
  writeFileSync(configFile, JSON.stringify(config));
  const queryUrl = `http://127.0.0.1:${queryPort}`;
  const engine = await startEngine('jaeger', binary, ['--config', configFile], `${queryUrl}/api/services`);
  return { otlpUrl: `http://127.0.0.1:${otlpPort}`, queryUrl, ...engine };
}
