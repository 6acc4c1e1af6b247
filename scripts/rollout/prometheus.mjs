// Debian's Prometheus as a child process, scraping the app processes' metrics ports.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { exitAsFailure, waitFor } from './wait.mjs';

const PROMETHEUS_PATH = '/usr/bin/prometheus';

/** Every second: a process that lives a few seconds is still scraped a few times. */
const SCRAPE_INTERVAL = '1s';

function prometheusConfig(targets) {
  return [
    'global:',
    `  scrape_interval: ${SCRAPE_INTERVAL}`,
    `  scrape_timeout: ${SCRAPE_INTERVAL}`,
    'scrape_configs:',
    '  - job_name: meridian',
    '    static_configs:',
    `      - targets: [${targets.map((target) => `'${target}'`).join(', ')}]`,
    '',
  ].join('\n');
}

/**
 * @typedef {{ metric: Record<string, string>, values: [number, string][] }} RangeSeries
 * @typedef {{ metric: Record<string, string>, value: [number, string] }} InstantSample
 */

/**
 * Starts Prometheus on `port`, scraping `targets` (host:port), its config and
 * storage in `dir`; resolves once it answers /-/ready.
 * @param {{ dir: string, port: number, targets: string[] }} options
 */
export async function startPrometheus({ dir, port, targets }) {
  const configFile = path.join(dir, 'prometheus.yml');
  writeFileSync(configFile, prometheusConfig(targets));
  const child = spawn(
    PROMETHEUS_PATH,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${path.join(dir, 'prometheus-data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${port}`;
  await Promise.race([
    waitFor('Prometheus to be ready', async () => {
      const response = await fetch(`${url}/-/ready`);
      if (!response.ok) throw new Error(`/-/ready answered ${response.status}`);
    }, { timeoutMs: 20_000 }),
    exitAsFailure('prometheus', exited, () => output),
  ]);

  async function api(endpoint, params) {
    const response = await fetch(`${url}/api/v1/${endpoint}?${new URLSearchParams(params)}`);
    const body = await response.json();
    if (body.status !== 'success') throw new Error(`prometheus: ${endpoint} ${JSON.stringify(params)} failed: ${body.error ?? response.status}`);
    return body.data.result;
  }

  return {
    url,
    /** @returns {Promise<InstantSample[]>} */
    query: (expr) => api('query', { query: expr }),
    /** @returns {Promise<RangeSeries[]>} */
    queryRange: (expr, startMs, endMs) =>
      api('query_range', { query: expr, start: String(startMs / 1000), end: String(endMs / 1000), step: SCRAPE_INTERVAL }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
