// The game day, shared by `npm run gameday` and tests/cluster/nodes/gameday.test.ts: a release per
// fault and a healthy one beside them, installed from a good image; Prometheus following
// them, Alertmanager routing by the chart's file to a receiver of our own, Jaeger taking
// their traces; steady traffic and browser tabs; then every fault injected at once, and for
// each, as soon as its alert has fired and been notified, its runbook run against the live
// cluster, the fault removed and the resolution awaited. Everything it made is removed at
// the end, or when it is interrupted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { installCustomResourceDefinitions } from '../cluster/custom-resources.mjs';
import { NETWORK } from '../cluster/layout.mjs';
import { recordedNodes } from '../cluster/node-count.mjs';
import { freePort } from '../lib/ports.mjs';
import { waitFor } from '../lib/wait.mjs';
import { startAlertmanager, startJaeger } from '../observability-engines.mjs';
import { CLUSTER_TARGETS } from '../rollout/cluster-scenario.mjs';
import { startLoad } from '../rollout/load-generator.mjs';
import { trafficTotals } from '../rollout/traffic-totals.mjs';
import { LATENCY_THRESHOLD_SECONDS } from './alert-tuning.mjs';
import { gamedayAlertmanagerConfig } from './alertmanager-config.mjs';
import { watchAlerts } from './alert-watch.mjs';
import { evaluatePanel, runDiagnosis } from './diagnosis.mjs';
import { startDocsServer } from './docs-server.mjs';
import { faultTag, makeFaultImages, parseImage, removeFaultImages } from './fault-images.mjs';
import { FAULTS, HEALTHY, nodeLossFault } from './faults.mjs';
import { claimNamespace } from './namespace.mjs';
import { prometheusAt, startReleasesPrometheus } from './prometheus.mjs';
import { gamedayRelease, gamedayValues } from './releases.mjs';
import { landingSection, readRunbooks } from './runbooks.mjs';
import { startBrowser } from './tabs.mjs';
import { findTrace, isErrorSpan, probeTrace, tracedRequest } from './traces.mjs';
import { startWebhookReceiver } from './webhook-receiver.mjs';

/**
 * From injection to the alert notified: about a minute for the slowest (the fast burn) on an
 * idle machine; generous, as a 2-core machine shared with other suites runs several times slower.
 */
const FIRE_TIMEOUT_MS = 480_000;
/** From removal to the resolved notification: a window of the alert's, and then some. */
const RESOLVE_TIMEOUT_MS = 360_000;

/**
 * @typedef {import('./faults.mjs').Fault} Fault
 * @typedef {ReturnType<typeof gamedayRelease>} Release
 * @typedef {{
 *   id: string, title: string, alert: string, release: string, job: string,
 *   expected: { firing: string[], notified: string[] },
 *   injectedAt?: number, firedAt?: number, notifiedAt?: number, removedAt?: number, resolvedAt?: number,
 *   firing: string[], notified: string[], inhibited: string[],
 *   firingSeen?: { alert: string, first: number, last: number }[],
 *   received?: { at: number, receiver: string, alert: string, status: string }[],
 *   notification?: { receiver: string, labels: Record<string, string>, annotations: Record<string, string> },
 *   landing?: string | null,
 *   steps?: import('./diagnosis.mjs').StepResult[],
 *   evidence?: { pattern: string, found: boolean }[],
 *   panel?: { row: string, title: string, expressions: string[], shows: boolean },
 *   trace?: { traceId: string, status: number, errorSpans: string[] },
 *   traffic?: { requests: number, serverErrors: number, connectionErrors: number, otherStatuses: number },
 *   error?: string,
 * }} FaultResult
 * @typedef {{ trace?: Awaited<ReturnType<typeof probeTrace>>, error?: string }} TraceProbe
 * @typedef {{ namespace: string, startedAt: number, faultsAt: number, endedAt: number, faults: FaultResult[], healthy: { release: string, job: string, firing: string[], notified: string[] }, unrouted: number, tracing: TraceProbe | null }} GamedayResult
 */

/**
 * @typedef {{
 *   access: import('./cluster-access.mjs').ClusterAccess,
 *   namespace: string,
 *   image: string,
 *   force?: boolean,
 *   nodeAddress?: string,
 *   prometheusUrl?: string,
 *   alertmanagerUrl?: string,
 *   jaegerUrl?: string,
 *   otlpEndpoint?: string,
 *   runbookBaseUrl?: string,
 *   valuesFiles?: string[],
 *   faults?: Fault[],
 *   log?: (line: string) => void,
 * }} GamedayOptions
 */

/**
 * Runs `steps` once, in reverse order of registration, whoever asks first; a step added once
 * the clean-up has begun (what an interrupted step went on to start) runs right after it.
 */
function cleanupStack(/** @type {(line: string) => void} */ log) {
  /** @type {{ label: string, step: () => Promise<unknown> }[]} */
  const steps = [];
  /** @type {Promise<void> | null} */
  let running = null;
  /** @param {{ label: string, step: () => Promise<unknown> }} entry */
  const runStep = ({ label, step }) =>
    step().catch((error) => log(`gameday: clean-up of ${label} failed: ${error instanceof Error ? error.message : error}`));
  return {
    /** @param {string} label @param {() => Promise<unknown>} step */
    add(label, step) {
      if (running) running = running.then(async () => void (await runStep({ label, step })));
      else steps.push({ label, step });
    },
    run: () =>
      (running ??= (async () => {
        for (const entry of steps.reverse()) await runStep(entry);
      })()),
  };
}

/**
 * Starts the game day. `result` settles once it is over and cleaned up; `interrupt()` cleans
 * up at once (for SIGINT and SIGTERM) and makes `result` reject.
 * @param {GamedayOptions} options
 */
export function startGameday(options) {
  const log = options.log ?? (() => {});
  const cleanup = cleanupStack(log);
  let interrupted = false;
  const checkpoint = () => {
    if (interrupted) throw new Error('gameday: interrupted');
  };
  const result = (async () => {
    try {
      return await play(options, cleanup, checkpoint, log);
    } finally {
      await cleanup.run();
    }
  })();
  return {
    result,
    async interrupt() {
      interrupted = true;
      await cleanup.run();
    },
  };
}

/**
 * @param {GamedayOptions} options
 * @param {ReturnType<typeof cleanupStack>} cleanup
 * @param {() => void} checkpoint
 * @param {(line: string) => void} log
 * @returns {Promise<GamedayResult>}
 */
async function play(options, cleanup, checkpoint, log) {
  const { access, namespace, image, force = false, valuesFiles = [], faults = everyFault(access, log) } = options;
  const nodeAddress = options.nodeAddress ?? '127.0.0.1';
  const startedAt = Date.now();
  const { repository, tag: goodTag } = parseImage(image);
  const releaseNames = [...faults.map((fault) => fault.id), HEALTHY.id];
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-gameday-'));
  cleanup.add('the working folder', async () => rmSync(dir, { recursive: true, force: true }));

  const created = await claimNamespace({ access, namespace, releases: releaseNames, force });
  log(`gameday: ${created ? 'created' : 'using'} namespace ${namespace}`);
  /** @type {Release[]} */
  const releases = [];
  cleanup.add(`namespace ${namespace}`, async () => {
    if (created) await access.kubectl(['delete', 'namespace', namespace, '--ignore-not-found', '--timeout=5m']);
    else for (const release of releases) await release.uninstall();
  });

  // Built while the releases install and warm up. The clean-up waits for the builds (once
  // interrupted, only for the one under way: the next does not start), then removes every
  // fault image, made or not.
  const imagesMade = makeFaultImages({ image, faults, local: access.local, log, checkpoint });
  imagesMade.catch(() => {});
  cleanup.add('the fault images', async () => {
    await imagesMade.catch(() => {});
    const tags = faults.filter((fault) => fault.layer).map((fault) => `${repository}:${faultTag(goodTag, fault.id)}`);
    await removeFaultImages({ images: tags, local: access.local });
  });

  // The engines: ours on the local cluster, the ones named otherwise.
  const receiver = options.alertmanagerUrl ? null : await startWebhookReceiver(await freePort());
  if (receiver) cleanup.add('the receiver', receiver.stop);
  const docs = options.runbookBaseUrl ? null : await startDocsServer(await freePort());
  if (docs) cleanup.add('the runbooks server', docs.stop);
  const runbookBaseUrl = options.runbookBaseUrl ?? /** @type {NonNullable<typeof docs>} */ (docs).baseUrl;
  let jaegerUrl = options.jaegerUrl;
  let otlpEndpoint = options.otlpEndpoint ?? null;
  if (access.local && !jaegerUrl) {
    // On the node's address, inside 198.18.0.0/15: the pods reach it, nothing outside does.
    const jaeger = await startJaeger({
      otlpHost: NETWORK.nodeAddress,
      otlpPort: await freePort(),
      queryPort: await freePort(),
      queryGrpcPort: await freePort(),
      log,
    });
    cleanup.add('Jaeger', jaeger.stop);
    jaegerUrl = jaeger.queryUrl;
    otlpEndpoint = jaeger.otlpUrl;
  }
  const jobs = releaseNames.map((name) => `${name}-meridian-metrics`);
  let alertmanagerUrl = options.alertmanagerUrl;
  if (!alertmanagerUrl) {
    const alertmanager = await startAlertmanager({
      dir: path.join(dir, 'alertmanager'),
      port: await freePort(),
      config: gamedayAlertmanagerConfig({ jobs, webhookUrl: /** @type {NonNullable<typeof receiver>} */ (receiver).url }),
      log,
    });
    cleanup.add('Alertmanager', alertmanager.stop);
    alertmanagerUrl = alertmanager.url;
  }
  checkpoint();

  // The releases, on the good image.
  const values = gamedayValues({ repository, local: access.local, otlpEndpoint, runbookBaseUrl });
  const lostNodes = faults.flatMap((fault) => (fault.node ? [fault.node] : []));
  for (const each of [...faults, HEALTHY])
    releases.push(
      gamedayRelease({
        access,
        namespace,
        release: each.id,
        values: { ...values, ...each.values, ...('node' in each ? {} : awayFrom(lostNodes)) },
        dir: path.join(dir, 'values'),
        valuesFiles,
      }),
    );
  // The releases' ServiceMonitor and PrometheusRule need the Operator's CRDs: `cluster:up`
  // leaves them out, another cluster's Operator brings them.
  if (access.local) await installCustomResourceDefinitions();
  log(`gameday: installing ${releases.length} releases of ${image} in ${namespace}`);
  await Promise.all(releases.map((release) => release.deploy({ tag: goodTag })));
  log('gameday: releases installed; warming them up');
  const baseUrls = Object.fromEntries(
    await Promise.all(releases.map(async (release) => [release.release, `http://${nodeAddress}:${await release.nodePort()}`])),
  );
  await Promise.all(
    Object.values(baseUrls).map((url) => waitFor(`${url} to answer`, () => warmUp(url), { timeoutMs: 60_000, intervalMs: 1000 })),
  );
  log('gameday: releases installed and warmed up');
  checkpoint();
  /** @type {TraceProbe | null} */
  const tracing = jaegerUrl
    ? await probeTrace({ access, namespace, release: HEALTHY.id, baseUrl: baseUrls[HEALTHY.id] ?? '', jaegerUrl }).then(
        (trace) => ({ trace }),
        (error) => ({ error: error instanceof Error ? error.message : String(error) }),
      )
    : null;
  log(
    `gameday: tracing: ${tracing ? (tracing.error ?? `trace ${tracing.trace?.traceId} found in Jaeger`) : 'no Jaeger named, not checked'}`,
  );

  let prometheus;
  if (options.prometheusUrl) prometheus = prometheusAt(options.prometheusUrl);
  else {
    const started = await startReleasesPrometheus({ access, releases, dir: path.join(dir, 'prometheus'), alertmanagerUrl });
    cleanup.add('Prometheus', started.stop);
    prometheus = started;
  }
  await waitFor(
    `Prometheus to scrape every pod of the ${releases.length} releases`,
    async () => {
      // By job: a release may run more than one pod (the node fault's runs two).
      const [sample] = await prometheus.query(`count(min by (job) (up{namespace="${namespace}"}) == 1)`);
      if (Number(sample?.value[1]) !== releases.length) throw new Error(`${sample?.value[1] ?? 0} releases with every target up`);
    },
    { timeoutMs: 120_000, intervalMs: 1000 },
  );
  log('gameday: Prometheus scrapes every release');
  const watch = watchAlerts({ prometheus, alertmanagerUrl, namespace, notifications: receiver?.notifications, log });
  cleanup.add('the alert watch', watch.stop);

  // Visitors: steady traffic where a fault needs it (and on the healthy release), and tabs.
  const loads = new Map(
    [...faults, HEALTHY]
      .filter((each) => each.load)
      .map((each) => [
        each.id,
        startLoad({ baseUrl: baseUrls[each.id], ratePerSecond: each.load ?? 0, targets: each.targets ?? CLUSTER_TARGETS }),
      ]),
  );
  cleanup.add('the traffic', () => Promise.all([...loads.values()].map((load) => load.stop())));
  const browser = await startBrowser();
  cleanup.add('the browser', browser.close);
  // A fault's tab opens once its fault is in (playFault): a page of the good build would keep
  // its immutable manifest cached and load every lazy chunk within seconds of going idle.
  await browser.reloadingTab(`${baseUrls[HEALTHY.id]}/`);
  log('gameday: traffic and tabs on; settling before the faults');
  await sleep(15_000);
  checkpoint();

  const images = await imagesMade;
  const runbooks = readRunbooks();
  const faultsAt = Date.now();
  log(`gameday: injecting ${faults.length} faults`);
  /** @type {Stage} */
  const stage = { access, namespace, goodTag, browser, watch, prometheus, jaegerUrl, runbooks, checkpoint, log };
  const results = await Promise.all(
    faults.map((fault) =>
      playFault(stage, {
        fault,
        release: /** @type {Release} */ (releases.find((each) => each.release === fault.id)),
        faultImage: images[fault.id],
        baseUrl: baseUrls[fault.id] ?? '',
      }),
    ),
  );
  // A late alert is noise too: a few more evaluations before judging.
  await sleep(10_000);
  const totals = new Map(
    await Promise.all([...loads].map(async ([id, load]) => /** @type {const} */ ([id, trafficTotals(await load.stop())]))),
  );
  for (const entry of results) {
    entry.firing = watch.firingAlerts(entry.job);
    entry.firingSeen = watch.firingSeen(entry.job);
    entry.notified = watch.notifiedAlerts(entry.job);
    entry.inhibited = watch.inhibitedAlerts(entry.job);
    entry.received = watch.receivedFor(entry.job);
    const traffic = totals.get(entry.id);
    if (traffic)
      entry.traffic = {
        requests: traffic.requests,
        serverErrors: traffic.serverErrors,
        connectionErrors: traffic.connectionErrors,
        otherStatuses: traffic.otherStatuses,
      };
  }
  const healthyJob = `${HEALTHY.id}-meridian-metrics`;
  return {
    namespace,
    startedAt,
    faultsAt,
    endedAt: Date.now(),
    faults: results,
    healthy: { release: HEALTHY.id, job: healthyJob, firing: watch.firingAlerts(healthyJob), notified: watch.notifiedAlerts(healthyJob) },
    unrouted: (receiver?.notifications ?? []).filter((notification) => notification.receiver === 'unrouted').length,
    tracing,
  };
}

/**
 * The faults, the node's loss among them where the game day can cut a node's power (and why
 * not, said, where it cannot).
 * @param {import('./cluster-access.mjs').ClusterAccess} access @param {(line: string) => void} log
 */
function everyFault(access, log) {
  const nodeLoss = nodeLossFault({ local: access.local, nodes: access.local ? recordedNodes() : [], log });
  if ('fault' in nodeLoss) return [...FAULTS, nodeLoss.fault];
  log(`gameday: no node-loss fault: ${nodeLoss.skipped}`);
  return FAULTS;
}

/**
 * The values that keep a release's pods off `nodes` (the ones a fault powers off), so that
 * only the fault's own release loses a pod there.
 * @param {string[]} nodes
 */
function awayFrom(nodes) {
  if (!nodes.length) return {};
  const away = { key: 'kubernetes.io/hostname', operator: 'NotIn', values: nodes };
  return {
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [away] }] } } },
  };
}

/** A few requests of each kind, so that no cold start counts in the latency windows. @param {string} baseUrl */
async function warmUp(baseUrl) {
  for (let round = 0; round < 10; round += 1)
    await Promise.all(
      CLUSTER_TARGETS.map(async ({ path: target, status = 200 }) => {
        const response = await fetch(`${baseUrl}${target}`);
        await response.arrayBuffer();
        if (response.status !== status) throw new Error(`${target} answered ${response.status}`);
      }),
    );
}

/**
 * What every fault plays against: the cluster and namespace, the good build, the browser,
 * the engines and the runbooks.
 * @typedef {{
 *   access: import('./cluster-access.mjs').ClusterAccess, namespace: string, goodTag: string,
 *   browser: Awaited<ReturnType<typeof startBrowser>>,
 *   watch: ReturnType<typeof watchAlerts>, prometheus: import('./diagnosis.mjs').PrometheusApi, jaegerUrl: string | undefined,
 *   runbooks: ReturnType<typeof readRunbooks>, checkpoint: () => void, log: (line: string) => void,
 * }} Stage
 */

/**
 * One fault, from injection to resolution; never rejects: a failure is recorded in the result.
 * @param {Stage} stage
 * @param {{ fault: Fault, release: Release, faultImage: string | undefined, baseUrl: string }} options
 * @returns {Promise<FaultResult>}
 */
async function playFault(stage, { fault, release, faultImage, baseUrl }) {
  const { access, namespace, goodTag, browser, watch, checkpoint, log } = stage;
  const { job } = release;
  /** @type {FaultResult} */
  const result = {
    id: fault.id,
    title: fault.title,
    alert: fault.alert,
    release: release.release,
    job,
    expected: { firing: fault.firing, notified: fault.notified },
    firing: [],
    notified: [],
    inhibited: [],
  };
  const context = {
    access,
    namespace,
    release: release.release,
    fullname: release.fullname,
    goodTag,
    faultTag: faultImage ? /** @type {string} */ (parseImage(faultImage).tag) : faultTag(goodTag, fault.id),
    deploy: (/** @type {{ tag?: string, wait?: boolean, forceConflicts?: boolean }} */ { tag = goodTag, ...rest } = {}) =>
      release.deploy({ tag, ...rest }),
    webPodNames: release.webPodNames,
    /** Waits until `alert` of this release neither fires in Prometheus nor is held by Alertmanager. @param {string} alert */
    untilAlertGone: (alert) => {
      const since = Date.now();
      return waitFor(
        `${alert} of ${release.release} to be gone from Prometheus and Alertmanager`,
        () => {
          if (!watch.goneSince(job, alert, since)) throw new Error('still there');
        },
        { timeoutMs: 90_000, intervalMs: 500 },
      );
    },
  };
  /** @type {{ stop: AbortController, visiting: Promise<void> } | undefined} */
  let revisits;
  try {
    result.injectedAt = Date.now();
    await fault.inject(context);
    log(`gameday: ${fault.id}: injected`);
    if (fault.tab) {
      // Only once every pod of the good build is gone does every request of the tab meet the fault.
      await waitFor(`the pods of ${fault.id} to be the new build's only`, async () => onlyImage(release, context.faultTag), {
        timeoutMs: 120_000,
        intervalMs: 1000,
      });
      const url = `${baseUrl}/`;
      if (fault.tab === 'chunks') {
        const tab = await browser.waitingTab(url, (line) => log(`gameday: ${fault.id}: ${line}`));
        await tab.clickUntilBlocked(60_000);
        // One visitor's report is all the alert needs here, but a report can be lost like any
        // request: the next visitors hit the fault too, until it fires.
        const fired = new AbortController();
        revisits = { stop: fired, visiting: tab.revisitUntil(fired.signal) };
      } else await browser.reloadingTab(url);
    }
    // Every alert the fault fires (MeridianDown's inhibited companion too) before it is diagnosed and removed.
    await waitFor(
      `${fault.firing.join(', ')} of ${release.release} to fire and ${fault.notified.join(', ')} to be notified`,
      () => {
        checkpoint();
        const firedAt = watch.firedAt(job, fault.alert);
        const notifiedAt = watch.notifiedAt(job, fault.alert);
        const pending = [
          ...fault.firing.filter((alert) => !watch.firedAt(job, alert)),
          ...fault.notified.filter((alert) => !watch.notifiedAt(job, alert)),
        ];
        if (!firedAt || !notifiedAt || pending.length) throw new Error(`waiting for ${[...new Set(pending)].join(', ') || fault.alert}`);
        Object.assign(result, { firedAt, notifiedAt });
      },
      { timeoutMs: FIRE_TIMEOUT_MS, intervalMs: 1000 },
    );
    revisits?.stop.abort();
    // A pod still terminating is listed by the runbook's `kubectl logs --selector` and may be
    // gone before its logs are read (NotFound): the on-call engineer reruns the command, the
    // game day reads the release once it has settled. A lost node's pod stays until it is back.
    if (!fault.node)
      await waitFor(`the old pods of ${release.release} to be gone before its runbook runs`, () => noTerminatingPod(release), {
        timeoutMs: 120_000,
        intervalMs: 1000,
      });
    log(`gameday: ${fault.id}: ${fault.alert} fired and notified; running its runbook`);
    await diagnose(stage, { fault, result, release, baseUrl });
    result.removedAt = Date.now();
    await fault.remove(context);
    log(`gameday: ${fault.id}: removed`);
    const resolved = await waitFor(
      `${fault.notified.join(', ')} of ${release.release} to be notified resolved`,
      () => {
        checkpoint();
        // The fault's own alert resolves once the fault is gone; a companion that reads a short
        // window (a failure counted once at start) may have resolved while it was live.
        const times = fault.notified.map((alert) =>
          watch.resolvedAt(job, alert, /** @type {number} */ (alert === fault.alert ? result.removedAt : result.injectedAt)),
        );
        if (times.some((time) => time === undefined)) throw new Error('not resolved yet');
        return Math.max(.../** @type {number[]} */ (times));
      },
      { timeoutMs: RESOLVE_TIMEOUT_MS, intervalMs: 1000 },
    );
    result.resolvedAt = resolved;
    log(`gameday: ${fault.id}: resolved`);
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
    log(`gameday: ${fault.id}: ${result.error}`);
  } finally {
    revisits?.stop.abort();
    await revisits?.visiting;
  }
  return result;
}

/**
 * Whether every pod of `release`, terminating ones included, runs the image tagged `tag`.
 * @param {Release} release @param {string} tag
 */
async function onlyImage(release, tag) {
  const images = (await release.webPods()).map((pod) => pod.spec.containers[0]?.image ?? '');
  if (!images.length || images.some((image) => !image.endsWith(`:${tag}`))) throw new Error(`pods run ${images.join(', ') || 'nothing'}`);
}

/** Whether no pod of `release` is terminating. @param {Release} release */
async function noTerminatingPod(release) {
  const terminating = (await release.webPods()).filter((pod) => pod.metadata.deletionTimestamp).map((pod) => pod.metadata.name);
  if (terminating.length) throw new Error(`terminating: ${terminating.join(', ')}`);
}

/**
 * The fault's runbook run while the fault is live: where its notification's runbook_url
 * lands, each diagnosis step's output and what it found, the panel it points at, and for a
 * failing render, the failing request's trace.
 * @param {Stage} stage
 * @param {{ fault: Fault, result: FaultResult, release: Release, baseUrl: string }} options
 */
async function diagnose({ access, namespace, watch, prometheus, jaegerUrl, runbooks }, { fault, result, release, baseUrl }) {
  const runbook = runbooks.get(fault.alert);
  if (!runbook) throw new Error(`docs/runbooks.md has no section ${fault.alert}`);
  const notified = watch.notification(release.job, fault.alert);
  if (notified) {
    result.notification = { receiver: notified.receiver, labels: notified.alert.labels, annotations: notified.alert.annotations };
    const url = notified.alert.annotations.runbook_url;
    result.landing = url ? await landingSection(url) : null;
  }
  const threshold = fault.alert === 'MeridianLatencyP99High' ? String(LATENCY_THRESHOLD_SECONDS) : '';
  result.steps = await runDiagnosis(runbook, {
    placeholders: { namespace, job: release.job, release: release.release, deployment: release.fullname, threshold },
    env: access.env,
    prometheus,
  });
  const outputs = result.steps.map((step) => step.output);
  result.evidence = fault.evidence.map((pattern) => ({ pattern: String(pattern), found: outputs.some((output) => pattern.test(output)) }));
  if (runbook.panel) {
    const panel = await evaluatePanel(runbook.panel, {
      job: release.job,
      namespace,
      prometheus,
      startMs: /** @type {number} */ (result.injectedAt),
      endMs: Date.now(),
    });
    result.panel = { ...runbook.panel, expressions: panel.expressions, shows: fault.panelShows(panel.targets) };
  }
  if (fault.id === 'render' && jaegerUrl) {
    const { traceId, status } = await tracedRequest(`${baseUrl}/ja`);
    const trace = await findTrace(jaegerUrl, traceId, { complete: (found) => found.spans.some(isErrorSpan) }).catch(() => null);
    result.trace = { traceId, status, errorSpans: (trace?.spans ?? []).filter(isErrorSpan).map((span) => span.operationName) };
  }
}
