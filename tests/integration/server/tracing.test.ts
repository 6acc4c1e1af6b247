import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accessLine, eventually, logLine, request } from '../support/http';
import { startServer, type RunningServer } from '../support/server-process';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT_SPAN_ID = 'b7ad6b7169203331';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`;

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: OtlpValue }[];
}
interface Span extends OtlpSpan {
  scope: string;
}

/** A minimal OTLP/HTTP (JSON) receiver: keeps every span POSTed to /v1/traces. */
let receiver: Server;
let receiverUrl: string;
const received: { path: string; spans: Span[] }[] = [];
const spans = () => received.flatMap((body) => body.spans);

function attribute(span: OtlpSpan, key: string): string | number | boolean | undefined {
  const value = span.attributes?.find((entry) => entry.key === key)?.value;
  if (!value) return undefined;
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue ?? value.doubleValue;
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const parsed = JSON.parse(body) as { resourceSpans?: { scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[] }[] };
      const found = (parsed.resourceSpans ?? []).flatMap((resource) =>
        (resource.scopeSpans ?? []).flatMap((scope) => (scope.spans ?? []).map((span) => ({ ...span, scope: scope.scope?.name ?? '' }))),
      );
      received.push({ path: req.url ?? '', spans: found });
      res.setHeader('Content-Type', 'application/json');
      res.end('{}');
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

const running: RunningServer[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
  received.length = 0;
});

async function start(env: Record<string, string>): Promise<RunningServer> {
  const server = await startServer(env);
  running.push(server);
  return server;
}

describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('exports a server span per request, continuing traceparent, with Next’s spans beneath it and its ids in the access log', async () => {
    const server = await start({ OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl, OTEL_BSP_SCHEDULE_DELAY: '100' });
    // A `$` in its path takes the not-found page past its template, so Next renders it.
    const reply = await request(`${server.url}/ja/nope$from-test`, { headers: { traceparent: TRACEPARENT, 'X-Request-Id': 'traced-404' } });
    expect(reply.status).toBe(404);

    const ours = await eventually(() => {
      const span = spans().find((candidate) => candidate.scope === 'meridian-server' && candidate.traceId === TRACE_ID);
      if (!span) throw new Error(`no meridian-server span yet among ${spans().length}`);
      return span;
    });
    expect(received.every((body) => body.path === '/v1/traces')).toBe(true);
    expect(ours.name).toBe('GET not_found');
    expect(ours.parentSpanId).toBe(PARENT_SPAN_ID);
    expect(attribute(ours, 'http.route')).toBe('not_found');
    expect(attribute(ours, 'http.response.status_code')).toBe(404);
    expect(attribute(ours, 'http.request.method')).toBe('GET');
    expect(attribute(ours, 'url.path')).toBe('/ja/nope$from-test');

    // Next's spans of the same request hang below ours, however deep.
    const nested = await eventually(() => {
      const inTrace = new Map(
        spans()
          .filter((span) => span.traceId === TRACE_ID)
          .map((span) => [span.spanId, span]),
      );
      const reachesOurs = (span: Span) => {
        for (let parent = span.parentSpanId, hops = 0; parent && hops < 50; hops += 1) {
          if (parent === ours.spanId) return true;
          parent = inTrace.get(parent)?.parentSpanId;
        }
        return false;
      };
      const found = [...inTrace.values()].filter((span) => span.scope === 'next.js' && reachesOurs(span));
      expect(found.length).toBeGreaterThan(0);
      return found;
    });
    expect(nested.every((span) => span.traceId === TRACE_ID)).toBe(true);

    expect(await accessLine(server, 'traced-404')).toMatchObject({ trace_id: TRACE_ID, span_id: ours.spanId });
  });

  it('answers a not-found page load from its template: our span only, no rendering by Next', async () => {
    const server = await start({ OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl, OTEL_BSP_SCHEDULE_DELAY: '100' });
    expect((await request(`${server.url}/ja/nope`, { headers: { 'X-Request-Id': 'template-404' } })).status).toBe(404);
    expect((await request(`${server.url}/ja/nope$x`, { headers: { 'X-Request-Id': 'rendered-404' } })).status).toBe(404);
    const fromTemplate = await accessLine(server, 'template-404');
    const rendered = await accessLine(server, 'rendered-404');

    // Spans leave in order; once the later request's Next spans have arrived, the earlier one's would have too.
    await eventually(() => expect(spans().some((span) => span.scope === 'next.js' && span.traceId === rendered.trace_id)).toBe(true));
    const templateSpans = spans().filter((span) => span.traceId === fromTemplate.trace_id);
    expect(templateSpans.map((span) => `${span.scope} ${span.name}`)).toEqual(['meridian-server GET not_found']);
  });

  it('starts a new trace when no traceparent is sent', async () => {
    const server = await start({ OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl, OTEL_BSP_SCHEDULE_DELAY: '100' });
    await request(`${server.url}/ja`, { headers: { 'X-Request-Id': 'traced-fresh' } });

    const line = await accessLine(server, 'traced-fresh');
    expect(line.trace_id).toMatch(/^[0-9a-f]{32}$/);
    const span = await eventually(() => {
      const found = spans().find((candidate) => candidate.scope === 'meridian-server' && candidate.spanId === line.span_id);
      if (!found) throw new Error('span not exported yet');
      return found;
    });
    expect(span).toMatchObject({ name: 'GET /[locale]', traceId: line.trace_id });
    expect(span.parentSpanId ?? '').toBe('');
  });
});

describe('without an exporter endpoint', () => {
  it.each([
    ['no OTEL_EXPORTER_OTLP_ENDPOINT', { OTEL_BSP_SCHEDULE_DELAY: '100' }],
    ['OTEL_SDK_DISABLED=true', { OTEL_EXPORTER_OTLP_ENDPOINT: 'receiver', OTEL_SDK_DISABLED: 'true', OTEL_BSP_SCHEDULE_DELAY: '100' }],
  ])('with %s: nothing is exported and log lines carry no trace ids', async (_, env) => {
    const server = await start(
      Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value === 'receiver' ? receiverUrl : value])),
    );
    await request(`${server.url}/ja/nope`, { headers: { traceparent: TRACEPARENT, 'X-Request-Id': 'untraced-404' } });
    await request(`${server.url}/ja`, { headers: { traceparent: TRACEPARENT, 'X-Request-Id': 'untraced-page' } });

    expect(await accessLine(server, 'untraced-404')).not.toHaveProperty('trace_id');
    expect(await accessLine(server, 'untraced-page')).not.toHaveProperty('span_id');
    expect(await logLine(server, (line) => line.msg === 'Meridian ready')).toMatchObject({ tracing: false });
    // An enabled exporter would have sent by now many times over (every 100 ms); give it a generous while.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(received).toEqual([]);
    expect(server.lines().filter((line) => line.includes(TRACE_ID))).toEqual([]);
  });
});
