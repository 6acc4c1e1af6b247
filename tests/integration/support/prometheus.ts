import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { waitForHttp } from '../../../scripts/lib/app-server.mjs';
import { freePort } from '../../../scripts/lib/ports.mjs';
import { ensureDebianPackages } from '../../../scripts/lib/system-deps.mjs';

export interface QueryResult {
  status: 'success' | 'error';
  error?: string;
  data?: { resultType: string; result: unknown[] };
}

export interface RunningPrometheus {
  url: string;
  /** An instant query, now or at `time` (Unix seconds). */
  query(expr: string, time?: string): Promise<QueryResult>;
  stop(): Promise<void>;
}

/**
 * Debian's Prometheus on a free loopback port, scraping `targets` (host:port)
 * every two seconds as job `job`, with `ruleFiles` loaded and evaluated every second.
 */
export async function startPrometheus(options: { job: string; targets: string[]; ruleFiles: string[] }): Promise<RunningPrometheus> {
  ensureDebianPackages(['prometheus']);
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-prometheus-'));
  const config = path.join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    stringify({
      // Two seconds, and as long to answer: a busy test machine can be slow with /metrics.
      global: { scrape_interval: '2s', scrape_timeout: '2s', evaluation_interval: '1s' },
      rule_files: options.ruleFiles,
      scrape_configs: [{ job_name: options.job, static_configs: [{ targets: options.targets }] }],
    }),
  );
  const port = await freePort();
  const child = spawn(
    'prometheus',
    [`--config.file=${config}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (chunk) => (log = (log + chunk).slice(-4000)));
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${port}`;
  await Promise.race([
    waitForHttp(`${url}/-/ready`),
    exited.then(() => {
      throw new Error(`prometheus exited before it was ready:\n${log}`);
    }),
  ]);
  return {
    url,
    async query(expr, time) {
      const body = new URLSearchParams({ query: expr, ...(time ? { time } : {}) });
      const response = await fetch(`${url}/api/v1/query`, { method: 'POST', body });
      return (await response.json()) as QueryResult;
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
