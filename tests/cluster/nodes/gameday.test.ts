import { beforeAll, describe, expect, test } from 'vitest';
import { CLUSTER_BUILDS, IMAGE_REPOSITORY } from '../../../tools/cluster/app-images.mjs';
import { clusterAccess } from '../../../tools/gameday/cluster-access.mjs';
import { FAULTS, nodeLossFault } from '../../../tools/gameday/faults.mjs';
import { startGameday, type GamedayResult } from '../../../tools/gameday/run.mjs';
import { NODES, threeNodeClusterForThisFile } from './support/three-nodes';

// The game day on the cluster of three nodes: every fault injected into a release of its
// own at once, a healthy release beside them; each alert fired by Prometheus from the
// chart's rules, routed by Alertmanager through helm/meridian/files/alertmanager.yaml to a
// webhook receiver, diagnosed by its runbook as written, and resolved once its fault is gone.
// The node's loss is among them: the last node's power cut under one of its release's pods.
const NAMESPACE = 'meridian-gameday';
const SEVERITY_RECEIVER: Record<string, string> = { critical: 'meridian-critical', warning: 'meridian-warning' };
const log = (line: string) => console.log(`>>> ${line}`);
const nodeLoss = nodeLossFault({ local: true, nodes: NODES, log });
if (!('fault' in nodeLoss)) throw new Error(`game day: no node-loss fault on three nodes: ${nodeLoss.skipped}`);
const GAMEDAY_FAULTS = [...FAULTS, nodeLoss.fault];

threeNodeClusterForThisFile();

let result: GamedayResult;
beforeAll(async () => {
  const started = Date.now();
  const gameday = startGameday({
    access: clusterAccess(),
    namespace: NAMESPACE,
    image: `${IMAGE_REPOSITORY}:${CLUSTER_BUILDS.a}`,
    faults: GAMEDAY_FAULTS,
    log: (line) => console.log(`>>> [${Math.round((Date.now() - started) / 1000)} s] ${line}`),
  });
  result = await gameday.result;
  console.log(`>>> game day: ${Math.round((result.endedAt - result.startedAt) / 1000)} s in all`);
}, 1_500_000);

const faultResult = (id: string) => {
  const found = result.faults.find((each) => each.id === id);
  if (!found) throw new Error(`no result for fault ${id}`);
  return found;
};

describe.each(GAMEDAY_FAULTS.map((fault) => [fault.id, fault] as const))('game day fault %s', (id, fault) => {
  test(`${fault.alert} fires in Prometheus and the fault plays out to its end`, () => {
    const entry = faultResult(id);
    expect(entry.error).toBeUndefined();
    expect(entry.firedAt).toBeGreaterThanOrEqual(entry.injectedAt ?? Infinity);
  });

  test('its notification reaches the receiver of its severity with the release labels, runbook_url and a summary naming the release', () => {
    const { notification, release, job } = faultResult(id);
    expect(notification, 'no firing notification received').toBeDefined();
    const { labels, annotations, receiver } = notification!;
    expect(labels).toMatchObject({ alertname: fault.alert, namespace: NAMESPACE, job });
    expect(receiver).toBe(SEVERITY_RECEIVER[labels.severity ?? '']);
    expect(annotations.summary).toContain(`release ${release} in ${NAMESPACE}`);
    expect(annotations.runbook_url).toMatch(/\/docs\/runbooks\.md#/);
    // The link lands on the alert's own section of docs/runbooks.md.
    expect(faultResult(id).landing).toBe(fault.alert);
  });

  test('no other alert of its release fires or is notified', () => {
    const entry = faultResult(id);
    // What the receiver got, in seconds from the injection, tells a late or uninhibited one.
    const seconds = (at: number) => Math.round((at - (entry.injectedAt ?? 0)) / 1000);
    const received = (entry.received ?? []).map(({ at, alert, status }) => `${seconds(at)} s ${alert} ${status}`).join('\n');
    // When each fired, and when the fault was removed: an alert of the fault's own, or a late one.
    const seen = (entry.firingSeen ?? [])
      .map(({ alert, first, last }) => `${alert} firing from ${seconds(first)} s to ${seconds(last)} s`)
      .concat(entry.removedAt ? [`fault removed at ${seconds(entry.removedAt)} s`] : [])
      .join('; ');
    expect(entry.firing, seen).toEqual([...fault.firing].sort());
    expect(entry.notified, received).toEqual([...fault.notified].sort());
  });

  test('the healthy release beside it stays silent', () => {
    expect(result.healthy.firing).not.toContain(fault.alert);
    expect(result.healthy.notified).not.toContain(fault.alert);
  });

  test('the resolved notification arrives once the fault is removed', () => {
    const entry = faultResult(id);
    expect(entry.resolvedAt).toBeGreaterThan(entry.removedAt ?? Infinity);
  });

  test("its runbook's diagnosis steps run as written and find the fault; the dashboard panel it points at shows it", () => {
    const entry = faultResult(id);
    expect(entry.steps?.length, 'the runbook has no diagnosis steps').toBeGreaterThan(0);
    for (const step of entry.steps ?? []) expect(step.exitCode, `${step.text}\n${step.output}`).toBe(0);
    for (const { pattern, found } of entry.evidence ?? [])
      expect(found, `no step's output matches ${pattern}:\n${(entry.steps ?? []).map((step) => step.output).join('\n')}`).toBe(true);
    expect(entry.evidence?.length).toBeGreaterThan(0);
    expect(entry.panel, 'the runbook names no dashboard panel').toBeDefined();
    expect(entry.panel?.shows, `${entry.panel?.row} › ${entry.panel?.title}: ${entry.panel?.expressions.join('; ')}`).toBe(true);
  });
});

describe('the game day as a whole', () => {
  test('the healthy release fires and is notified nothing at all', () => {
    expect(result.healthy.firing).toEqual([]);
    expect(result.healthy.notified).toEqual([]);
  });

  test('while MeridianDown fires, Alertmanager inhibits the release’s target alert, which is never notified', () => {
    const down = faultResult('down');
    expect(down.firing).toContain('MeridianTargetDown');
    expect(down.inhibited).toContain('MeridianTargetDown');
    expect(down.notified).not.toContain('MeridianTargetDown');
  });

  test('nothing reached the catch-all receiver', () => {
    expect(result.unrouted).toBe(0);
  });

  test("the failing /ja render's trace in Jaeger holds an error span", () => {
    const { trace } = faultResult('render');
    expect(trace?.status).toBe(500);
    expect(trace?.errorSpans.length, `trace ${trace?.traceId}`).toBeGreaterThan(0);
  });

  test('an upgrade that cannot start leaves the old pods serving without a failed request', () => {
    const { traffic } = faultResult('stuck');
    expect(traffic?.requests).toBeGreaterThan(0);
    expect(traffic).toMatchObject({ serverErrors: 0, connectionErrors: 0, otherStatuses: 0 });
  });
});

describe('traces in a real Jaeger', () => {
  test("a request with a traceparent: its trace through Jaeger's query API, our server span with its attributes and Next's render spans under it, the access log line's trace id", () => {
    expect(result.tracing?.error).toBeUndefined();
    const trace = result.tracing?.trace;
    expect(trace?.status).toBe(404);
    expect(trace?.service).toBe('meridian');
    expect(trace?.root).toMatchObject({
      operationName: 'GET not_found',
      tags: {
        'otel.scope.name': 'meridian-server',
        'span.kind': 'server',
        'http.route': 'not_found',
        'http.request.method': 'GET',
        'http.response.status_code': 404,
        'url.path': '/ja/nope$from-gameday',
      },
    });
    expect(trace?.nextSpans.length).toBeGreaterThan(0);
    expect(trace?.logLine).toMatchObject({ msg: 'request', trace_id: trace?.traceId, status: 404 });
  });
});
