import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { freePort } from '../../tools/lib/ports.mjs';
import { waitFor } from '../../tools/lib/wait.mjs';
import { startAlertmanager, startJaeger } from '../../tools/observability-engines.mjs';
import { ALERTMANAGER_FILE } from '../deployment/support/alertmanager';

// The engines of the game day, built from their pinned Go modules and run on
// loopback: each does its one job end to end here, before any fault is injected.
const dir = mkdtempSync(path.join(tmpdir(), 'meridian-engines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the game day engines, built from their Go modules', () => {
  test('Alertmanager takes an alert on its v2 API and notifies a webhook receiver, grouped by release', async () => {
    const notifications: { status: string; groupLabels: Record<string, string>; alerts: { labels: Record<string, string> }[] }[] = [];
    const receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        notifications.push(JSON.parse(body));
        response.end();
      });
    });
    const receiverPort = await freePort();
    await new Promise<void>((resolve) => receiver.listen(receiverPort, '127.0.0.1', resolve));
    const alertmanager = await startAlertmanager({
      dir: path.join(dir, 'alertmanager'),
      port: await freePort(),
      config: {
        route: { receiver: 'webhook', group_by: ['release'], group_wait: '1s', group_interval: '1s', repeat_interval: '1h' },
        receivers: [{ name: 'webhook', webhook_configs: [{ url: `http://127.0.0.1:${receiverPort}/`, send_resolved: true }] }],
      },
    });
    try {
      const alert = { labels: { alertname: 'MeridianDown', release: 'engines-test', severity: 'page' }, annotations: { summary: 'down' } };
      const posted = await fetch(`${alertmanager.url}/api/v2/alerts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([alert]),
      });
      expect(posted.status).toBe(200);
      await waitFor('the webhook notification', () => expect(notifications.length).toBeGreaterThan(0), { timeoutMs: 30_000 });
      expect(notifications[0]).toMatchObject({ status: 'firing', groupLabels: { release: 'engines-test' } });
      expect(notifications[0]?.alerts[0]?.labels).toMatchObject(alert.labels);
    } finally {
      await alertmanager.stop();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  test("Alertmanager, on the chart's files/alertmanager.yaml, inhibits each rule's target within its release and nowhere else", async () => {
    const alertmanager = await startAlertmanager({
      dir: path.join(dir, 'alertmanager-file'),
      port: await freePort(),
      config: parse(readFileSync(ALERTMANAGER_FILE, 'utf8')),
    });
    const alert = (alertname: string, severity: string, job = 'meridian', extra: Record<string, string> = {}) => ({
      labels: { alertname, severity, job, namespace: 'site', ...extra },
      annotations: { summary: alertname },
    });
    // Each fault's alerts as Prometheus sends them; the lag of another release has no latency alert beside it.
    const sent = [
      alert('MeridianDown', 'critical'),
      alert('MeridianTargetDown', 'warning', 'meridian', { instance: '198.18.0.2:9464' }),
      alert('MeridianErrorBudgetFastBurn', 'critical', 'burning'),
      alert('MeridianErrorBudgetSlowBurn', 'warning', 'burning'),
      alert('MeridianLatencyP99High', 'warning', 'starved'),
      alert('MeridianEventLoopLagHigh', 'warning', 'starved', { instance: '198.18.0.3:9464' }),
      alert('MeridianEventLoopLagHigh', 'warning', 'lagging', { instance: '198.18.0.4:9464' }),
    ];
    try {
      const posted = await fetch(`${alertmanager.url}/api/v2/alerts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sent),
      });
      expect(posted.status).toBe(200);
      type Listed = { labels: Record<string, string>; status: { state: string } };
      const states = await waitFor(
        'the alerts listed',
        async () => {
          const listed = (await (await fetch(`${alertmanager.url}/api/v2/alerts`)).json()) as Listed[];
          if (listed.length < sent.length) throw new Error(`${listed.length} listed`);
          return Object.fromEntries(listed.map(({ labels, status }) => [`${labels.job} ${labels.alertname}`, status.state]));
        },
        { timeoutMs: 30_000 },
      );
      expect(states).toEqual({
        'meridian MeridianDown': 'active',
        'meridian MeridianTargetDown': 'suppressed',
        'burning MeridianErrorBudgetFastBurn': 'active',
        'burning MeridianErrorBudgetSlowBurn': 'suppressed',
        'starved MeridianLatencyP99High': 'active',
        'starved MeridianEventLoopLagHigh': 'suppressed',
        'lagging MeridianEventLoopLagHigh': 'active',
      });
    } finally {
      await alertmanager.stop();
    }
  });

  test("Jaeger v2, on the compose stack's collector file, takes a trace over OTLP/HTTP and finds it by its id through the query API", async () => {
    const jaeger = await startJaeger({
      otlpPort: await freePort(),
      queryPort: await freePort(),
      queryGrpcPort: await freePort(),
    });
    try {
      const traceId = randomBytes(16).toString('hex');
      const now = BigInt(Date.now()) * 1_000_000n;
      const span = {
        traceId,
        spanId: randomBytes(8).toString('hex'),
        name: 'GET /ja',
        kind: 2,
        startTimeUnixNano: String(now),
        endTimeUnixNano: String(now + 5_000_000n),
        status: { code: 2 },
      };
      const exported = await fetch(`${jaeger.otlpUrl}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          resourceSpans: [
            { resource: { attributes: [{ key: 'service.name', value: { stringValue: 'meridian' } }] }, scopeSpans: [{ spans: [span] }] },
          ],
        }),
      });
      expect(exported.status, await exported.text()).toBe(200);
      const trace = await waitFor(
        'the trace in the query API',
        async () => {
          const response = await fetch(`${jaeger.queryUrl}/api/traces/${traceId}`);
          if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
          return (await response.json()) as { data: { spans: { operationName: string; tags: { key: string; value: unknown }[] }[] }[] };
        },
        { timeoutMs: 30_000, intervalMs: 500 },
      );
      expect(trace.data[0]?.spans.map((each) => each.operationName)).toEqual(['GET /ja']);
      expect(trace.data[0]?.spans[0]?.tags).toContainEqual(expect.objectContaining({ key: 'error', value: true }));
    } finally {
      await jaeger.stop();
    }
  });
});
