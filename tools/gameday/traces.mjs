// A request with a W3C traceparent of our own, and its trace found in Jaeger's query API:
// how the game day and the trace test prove the pods' traces reach the backend.
import { randomBytes } from 'node:crypto';
import { waitFor } from '../lib/wait.mjs';

/**
 * @typedef {{ key: string, type?: string, value: unknown }} Tag
 * @typedef {{ traceID: string, spanID: string, operationName: string, references: { refType: string, spanID: string }[], tags: Tag[], processID: string }} JaegerSpan
 * @typedef {{ traceID: string, spans: JaegerSpan[], processes: Record<string, { serviceName: string }> }} JaegerTrace
 */

/**
 * Sends `GET url` as part of a new sampled trace; resolves with its trace id and status.
 * @param {string} url @param {Record<string, string>} [headers]
 */
export async function tracedRequest(url, headers = {}) {
  const traceId = randomBytes(16).toString('hex');
  const response = await fetch(url, { headers: { ...headers, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` } });
  await response.arrayBuffer();
  return { traceId, status: response.status };
}

/**
 * The trace `traceId` from the Jaeger query API at `queryUrl`, once it holds a span matching
 * `complete` (spans arrive in batches: the server span ends last).
 * @param {string} queryUrl @param {string} traceId
 * @param {{ timeoutMs?: number, complete?: (trace: JaegerTrace) => boolean }} [options]
 * @returns {Promise<JaegerTrace>}
 */
export function findTrace(queryUrl, traceId, { timeoutMs = 30_000, complete = () => true } = {}) {
  return waitFor(
    `trace ${traceId} in Jaeger`,
    async () => {
      const response = await fetch(`${queryUrl.replace(/\/$/, '')}/api/traces/${traceId}`);
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      const [trace] = /** @type {{ data: JaegerTrace[] }} */ (await response.json()).data;
      if (!trace || !complete(trace)) throw new Error(`${trace?.spans.length ?? 0} spans so far`);
      return trace;
    },
    { timeoutMs, intervalMs: 500 },
  );
}

/** A span's tag value. @param {JaegerSpan} span @param {string} key */
export const tagOf = (span, key) => span.tags.find((tag) => tag.key === key)?.value;

/** Whether Jaeger marks the span as an error (OpenTelemetry status ERROR). @param {JaegerSpan} span */
export const isErrorSpan = (span) => tagOf(span, 'error') === true || tagOf(span, 'otel.status_code') === 'ERROR';

/** The span with no parent inside the trace: the first hop, our server's. @param {JaegerTrace} trace */
export function rootSpan(trace) {
  const ids = new Set(trace.spans.map((span) => span.spanID));
  return trace.spans.find((span) => !span.references.some((reference) => reference.refType === 'CHILD_OF' && ids.has(reference.spanID)));
}

/** Every span below `span` in the trace. @param {JaegerTrace} trace @param {JaegerSpan} span @returns {JaegerSpan[]} */
export function descendants(trace, span) {
  const children = trace.spans.filter((each) => each.references.some((reference) => reference.spanID === span.spanID));
  return children.flatMap((child) => [child, ...descendants(trace, child)]);
}

/**
 * What the game day proves of tracing on a live release: a request carrying a traceparent
 * whose page Next renders (a `$` in a missing path keeps it from the not-found template), its trace
 * found in Jaeger with our server span at its root and Next's spans below it, and the
 * request's access log line, read from the pod, carrying the same trace id.
 * @param {{ access: import('./cluster-access.mjs').ClusterAccess, namespace: string, release: string, baseUrl: string, jaegerUrl: string }} options
 */
export async function probeTrace({ access, namespace, release, baseUrl, jaegerUrl }) {
  const requestId = `gameday-trace-${randomBytes(4).toString('hex')}`;
  const { traceId, status } = await tracedRequest(`${baseUrl}/ja/nope$from-gameday`, { 'X-Request-Id': requestId });
  const trace = await findTrace(jaegerUrl, traceId, {
    timeoutMs: 60_000,
    complete: (found) => {
      const root = rootSpan(found);
      return Boolean(
        root && tagOf(root, 'http.route') && descendants(found, root).some((span) => tagOf(span, 'otel.scope.name') === 'next.js'),
      );
    },
  });
  const root = /** @type {JaegerSpan} */ (rootSpan(trace));
  const { stdout } = await access.kubectl([
    'logs',
    '--namespace',
    namespace,
    '--selector',
    `app.kubernetes.io/instance=${release},app.kubernetes.io/component=web`,
    '--tail=-1',
  ]);
  const logLine = stdout
    .split('\n')
    .filter((line) => line.includes(requestId))
    .map((line) => /** @type {Record<string, unknown>} */ (JSON.parse(line)))
    .find((line) => line.msg === 'request');
  return {
    traceId,
    status,
    service: trace.processes[root.processID]?.serviceName,
    root: { operationName: root.operationName, tags: Object.fromEntries(root.tags.map((tag) => [tag.key, tag.value])) },
    nextSpans: descendants(trace, root)
      .filter((span) => tagOf(span, 'otel.scope.name') === 'next.js')
      .map((span) => span.operationName),
    logLine: logLine ?? null,
  };
}
