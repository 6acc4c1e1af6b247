import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { vi } from 'vitest';
import type { RunningServer } from './server-process';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string | number>;
  body?: string | Buffer;
  agent?: Agent;
}

/**
 * One request through node:http, sent as written (any method, any header,
 * any path). Resolves with the response even when the server closes the
 * connection while the body is still being sent (413 and friends).
 */
export function request(url: string, options: RequestOptions = {}): Promise<Reply> {
  const { method = 'GET', headers = {}, body, agent } = options;
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    let settled = false;
    const req = httpRequest(
      { hostname: target.hostname, port: target.port, path: url.slice(target.origin.length) || '/', method, headers, agent },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          settled = true;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
        });
        res.on('error', (error) => settled || reject(error));
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout: ${method} ${url.slice(0, 120)}`)));
    req.on('error', (error) => settled || reject(error));
    req.end(body);
  });
}

/** The path of a build script the running build's /ja loads (`/_next/static/chunks/….js`). */
export async function buildScriptOf(server: RunningServer): Promise<string> {
  const script = /\/_next\/static\/chunks\/[^"?]+\.js/.exec((await request(`${server.url}/ja`)).body)?.[0];
  if (!script) throw new Error('/ja names no build script');
  return script;
}

/** The text of `GET /metrics` on the server's metrics port. */
export async function scrape(server: RunningServer): Promise<string> {
  const reply = await request(`${server.metricsUrl}/metrics`);
  if (reply.status !== 200) throw new Error(`/metrics answered ${reply.status}`);
  return reply.body;
}

export interface Series {
  name: string;
  labels: Record<string, string>;
  value: number;
  /** `name{labels}` as exposed, without the value. */
  key: string;
}

/** Every series of an exposition: the lines that are neither comments nor blank. */
export function parseSeries(text: string): Series[] {
  const series: Series[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+(\S+)$/.exec(line);
    if (!match) throw new Error(`unparsable exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1] as string] = pair[2] as string;
    }
    series.push({ name: match[1] as string, labels, value: Number(match[3]), key: `${match[1]}${match[2] ?? ''}` });
  }
  return series;
}

/** The value of the one series named `name` whose labels include `labels`, or undefined. */
export function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = parseSeries(text).filter(
    (series) => series.name === name && Object.entries(labels).every(([key, value]) => series.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} series`);
  return found[0]?.value;
}

/** Retries `check` until it stops throwing (or returns a value), for conditions that become true eventually. */
export function eventually<T>(check: () => T | Promise<T>, timeoutMs = 20_000, intervalMs = 100): Promise<T> {
  return vi.waitFor(check, { timeout: timeoutMs, interval: intervalMs });
}

export type LogLine = Record<string, unknown>;

/** Waits for the server's stdout line matching `predicate` (logs are written asynchronously). */
export function logLine(server: RunningServer, predicate: (line: LogLine) => boolean, timeoutMs = 20_000): Promise<LogLine> {
  return eventually(() => {
    const line = server
      .lines()
      .map((text) => JSON.parse(text) as LogLine)
      .find(predicate);
    if (!line)
      throw new Error(`no log line matched ${predicate.toString().slice(0, 200)}; stdout so far:\n${server.lines().slice(-20).join('\n')}`);
    return line;
  }, timeoutMs);
}

/** Waits for the access log line of the request sent with `X-Request-Id: requestId`. */
export function accessLine(server: RunningServer, requestId: string): Promise<LogLine> {
  return logLine(server, (line) => line.msg === 'request' && line.request_id === requestId);
}
