// The faults of the game day, each a realistic failure injected into a live release of its
// own, with no fault switch in the product: an image layered on the good one with one file
// broken or removed, a resource limit, deleted pods, a browser tab, and where the game day
// can cut a node's power, a node lost. Each names the alert it must fire (and whose runbook
// is exercised), what else fires with it, what its runbook's steps must find, and how the
// panel the runbook points at shows it.
import { ensureBinaries } from '../cluster-binaries.mjs';
import { powerOffNode, powerOnNode } from '../cluster/node-power.mjs';
import { CLUSTER_TARGETS } from '../rollout/cluster-scenario.mjs';
import { LATENCY_THRESHOLD_SECONDS } from './alert-tuning.mjs';
import { fullnameOf } from './releases.mjs';

/**
 * What a fault is given to act on its release.
 * @typedef {{
 *   access: import('./cluster-access.mjs').ClusterAccess,
 *   namespace: string,
 *   release: string,
 *   fullname: string,
 *   goodTag: string,
 *   faultTag: string,
 *   deploy: (options?: { tag?: string, wait?: boolean, forceConflicts?: boolean }) => Promise<unknown>,
 *   webPodNames: () => Promise<string[]>,
 *   untilAlertGone: (alert: string) => Promise<unknown>,
 * }} FaultContext
 */

/**
 * @typedef {{ metric: Record<string, string>, values: [number, string][] }} PanelSeries
 * @typedef {{
 *   id: string,
 *   title: string,
 *   alert: string,
 *   firing: string[],
 *   notified: string[],
 *   layer?: string[][],
 *   load?: number,
 *   targets?: { path: string, status?: number }[],
 *   values?: Record<string, unknown>,
 *   tab?: 'reloads' | 'chunks',
 *   node?: string,
 *   inject: (context: FaultContext) => Promise<unknown>,
 *   remove: (context: FaultContext) => Promise<unknown>,
 *   evidence: RegExp[],
 *   panelShows: (targets: PanelSeries[][]) => boolean,
 * }} Fault
 * `node` is the node whose power the fault cuts: no other release runs there, and the fault's
 * own pod there stays Terminating until the node is back.
 */

/** The highest value a panel's series reached. @param {PanelSeries[] | undefined} series */
const peak = (series = []) => Math.max(0, ...series.flatMap((each) => each.values.map(([, value]) => Number(value) || 0)));
/** The lowest. @param {PanelSeries[] | undefined} series */
const trough = (series = []) => Math.min(Infinity, ...series.flatMap((each) => each.values.map(([, value]) => Number(value))));

/** The new build's pods replace the good ones (their readiness allowing). @param {FaultContext} context */
const toFaultImage = (context) => context.deploy({ tag: context.faultTag });
/** Back to the good image. @param {FaultContext} context */
const toGoodImage = (context) => context.deploy({ tag: context.goodTag });

/**
 * A CPU limit (and request: a limit below it is refused) set on the running pods in place,
 * as VPA's in-place mode or a hand resize does; no restart.
 * @param {FaultContext} context @param {string} limit @param {string} request
 */
async function resizeCpu(context, limit, request) {
  const patch = { spec: { containers: [{ name: 'meridian', resources: { requests: { cpu: request }, limits: { cpu: limit } } }] } };
  for (const pod of await context.webPodNames())
    await context.access.kubectl([
      'patch',
      'pod',
      pod,
      '--namespace',
      context.namespace,
      '--subresource',
      'resize',
      '--patch',
      JSON.stringify(patch),
    ]);
}

/**
 * The CPU limit the starved release runs under: above what it uses at CPU_LOAD with
 * STARVED_TARGETS (20 to 23m measured), so its probes and scrapes keep answering, and low enough that
 * each render, spread over many throttling periods, takes the better part of a second. At
 * 50m under twice the load a render took 0.45 to 0.55 s on a faster machine: the alert
 * fired after five minutes or not at all. Much less than it uses (20m under twice this load)
 * and its liveness probe fails: it restarts, and MeridianDown fires instead.
 */
export const STARVED_CPU = '30m';
/**
 * The CPU request of the release to be starved and of its healthy neighbour, until the
 * fault: what they need reserved, so that the machine's own bursts (the other faults'
 * pods starting, the tabs) slow them less than the pods that reserve the chart's 100m.
 */
export const PROVISIONED_CPU = '300m';
/** Requests per second through the starved release and its healthy neighbour. */
export const CPU_LOAD = 5;
/**
 * What the starved release and its healthy neighbour are asked: the other releases' mix,
 * and one request in 21 (about 5 %, past the p99) a missing page that Next renders (the `$`
 * keeps it from the not-found template). Answers from memory fit in one throttling period
 * and are over before they are timed; a render spans many periods, so throttling shows in
 * the latency the server measures. Few renders keep the starved pod's work under its
 * limit: its queue, probes and scrapes stay short, and only the renders are slow.
 */
export const STARVED_TARGETS = [
  ...CLUSTER_TARGETS,
  ...CLUSTER_TARGETS,
  ...CLUSTER_TARGETS,
  ...CLUSTER_TARGETS,
  { path: '/no-such-page$starved', status: 404 },
];
/** The values of the release to be starved and of its healthy neighbour. */
const PROVISIONED = { resources: { requests: { cpu: PROVISIONED_CPU } } };
/** Requests per second through the other releases under load. */
export const STEADY_LOAD = 20;

/** @type {Fault[]} */
export const FAULTS = [
  {
    id: 'locale',
    title: 'locales/ja/not-found.json does not parse',
    alert: 'MeridianServerLocaleLoadFailure',
    firing: ['MeridianServerLocaleLoadFailure'],
    notified: ['MeridianServerLocaleLoadFailure'],
    layer: [['sh', '-c', 'printf \'{ "title": \' > locales/ja/not-found.json']],
    inject: toFaultImage,
    remove: toGoodImage,
    evidence: [/"locale":\s*"ja"/, /"namespace":\s*"not-found"/],
    panelShows: ([failures]) => peak(failures?.filter((each) => each.metric.locale === 'ja' && each.metric.source === 'server')) > 0,
  },
  {
    id: 'manifest',
    title: "the build's route manifest (builds/meta/<id>.json) is missing, a tab open",
    alert: 'MeridianClientManifestFetchFailureBurst',
    firing: ['MeridianClientManifestFetchFailureBurst'],
    notified: ['MeridianClientManifestFetchFailureBurst'],
    layer: [['sh', '-c', 'rm builds/meta/*.json']],
    tab: 'reloads',
    inject: toFaultImage,
    remove: toGoodImage,
    evidence: [/"kind":\s*"manifest"/, /"status":\s*404/],
    panelShows: ([failures]) => peak(failures?.filter((each) => each.metric.kind === 'manifest')) > 0,
  },
  {
    id: 'render',
    title: '/ja fails to render (its prerendered page gone, the [locale] page module throwing) under load',
    alert: 'MeridianErrorBudgetFastBurn',
    firing: ['MeridianErrorBudgetFastBurn'],
    notified: ['MeridianErrorBudgetFastBurn'],
    layer: [
      ['sh', '-c', 'rm -r .next/server/app/ja.html .next/server/app/ja.rsc .next/server/app/ja.meta .next/server/app/ja.segments'],
      [
        'sed',
        '-i',
        "1i throw new Error('game day: the [locale] page of this build throws when rendered');",
        '.next/server/app/[locale]/(default)/page.js',
      ],
    ],
    load: STEADY_LOAD,
    inject: toFaultImage,
    remove: toGoodImage,
    evidence: [/"status":\s*500/, /"path":\s*"\/ja"/],
    panelShows: ([ratio]) => peak(ratio) > 0,
  },
  {
    id: 'stuck',
    title: 'an upgrade to a build that never becomes ready (a locale file missing), under load',
    alert: 'MeridianRolloutStuck',
    // A pod is kept out of service only while a locale file is missing (src/server/serving/
    // health), and the server loads every locale's files at start (its not-found pages), so
    // the build that never becomes ready also reports the failed load: two alerts, one cause.
    firing: ['MeridianRolloutStuck', 'MeridianServerLocaleLoadFailure'],
    notified: ['MeridianRolloutStuck', 'MeridianServerLocaleLoadFailure'],
    layer: [
      ['rm', 'locales/ja/carousel.json'],
      // A build of its own, as any upgrade brings.
      ['sed', '-i', 's/"buildId": "\\([^"]*\\)"/"buildId": "\\1-next"/', 'build-info.json'],
    ],
    load: STEADY_LOAD,
    // helm's --wait would wait for a readiness that never comes.
    inject: (context) => context.deploy({ tag: context.faultTag, wait: false }),
    remove: toGoodImage,
    evidence: [/0\/1\s+Running/, /503 locale files unreadable/],
    panelShows: ([builds]) => (builds ?? []).length >= 2,
  },
  {
    id: 'down',
    title:
      "every pod crash-looping: a hand edit of the release's ConfigMap (LOG_LEVEL=verbose), then its pods deleted as a node drain would",
    alert: 'MeridianDown',
    firing: ['MeridianDown', 'MeridianTargetDown'],
    // MeridianDown inhibits the release's other alerts.
    notified: ['MeridianDown'],
    async inject(context) {
      const { access, namespace, fullname, release } = context;
      // The ConfigMap the pods take their settings from, named by their hash (the chart's configmap.yaml).
      const { stdout: settings } = await access.kubectl([
        'get',
        'deployment',
        fullname,
        '--namespace',
        namespace,
        '--output',
        'jsonpath={.spec.template.spec.containers[?(@.name=="meridian")].envFrom[0].configMapRef.name}',
      ]);
      await access.kubectl([
        'patch',
        'configmap',
        settings,
        '--namespace',
        namespace,
        '--type',
        'merge',
        '--patch',
        '{"data":{"LOG_LEVEL":"verbose"}}',
      ]);
      await access.kubectl([
        'delete',
        'pods',
        '--namespace',
        namespace,
        '--selector',
        `app.kubernetes.io/instance=${release},app.kubernetes.io/component=web`,
        '--wait=false',
      ]);
    },
    // The pods whose target alert fires are deleted first, and their alert is gone from
    // Prometheus and Alertmanager (a deleted pod's target lingers until discovery drops it and
    // its series go stale) while MeridianDown still fires and inhibits it: had a good pod
    // answered first, MeridianDown would resolve with their target alert still firing,
    // uninhibited, and it would be sent. Their successors crash too, too briefly for theirs to
    // fire. Then helm takes the ConfigMap back (the hand edit's field manager conflicts with
    // it), and the successors are deleted so that new pods read it at once instead of at
    // their next restart.
    async remove(context) {
      const { access, namespace, fullname, release } = context;
      const selector = `app.kubernetes.io/instance=${release},app.kubernetes.io/component=web`;
      await access.kubectl(['delete', 'pods', '--namespace', namespace, '--selector', selector, '--wait=true', '--timeout=2m']);
      await context.untilAlertGone('MeridianTargetDown');
      await context.deploy({ tag: context.goodTag, wait: false, forceConflicts: true });
      await access.kubectl(['delete', 'pods', '--namespace', namespace, '--selector', selector, '--wait=false']);
      await access.kubectl(['rollout', 'status', `deployment/${fullname}`, '--namespace', namespace, '--timeout=5m']);
    },
    evidence: [/CrashLoopBackOff|Error/, /LOG_LEVEL="verbose" is invalid/],
    panelShows: ([up, down]) => trough(up) === 0 && peak(down) >= 1,
  },
  {
    id: 'cpu',
    title: `a CPU limit of ${STARVED_CPU} set on the running pods, under load`,
    alert: 'MeridianLatencyP99High',
    firing: ['MeridianLatencyP99High'],
    notified: ['MeridianLatencyP99High'],
    load: CPU_LOAD,
    targets: STARVED_TARGETS,
    values: PROVISIONED,
    inject: (context) => resizeCpu(context, STARVED_CPU, STARVED_CPU),
    // Limits cannot be removed in place: raised to the node's two cores, the request back to what it was.
    remove: (context) => resizeCpu(context, '2', PROVISIONED_CPU),
    // The log step selects the requests slower than the threshold: any line is one.
    evidence: [/"duration_ms":/],
    panelShows: ([p99]) => peak(p99) > LATENCY_THRESHOLD_SECONDS,
  },
  {
    id: 'chunks',
    title: "an upgrade whose build lost its lazily loaded chunks (Swiper's among them), a visitor's tab on it hovering the carousel",
    alert: 'MeridianChunkReloadBlocked',
    firing: ['MeridianChunkReloadBlocked'],
    notified: ['MeridianChunkReloadBlocked'],
    layer: [
      [
        'node',
        '-e',
        'const fs=require("fs");const dir=".next/static/chunks";const pages=fs.readdirSync(".next/server/app").filter((f)=>f.endsWith(".html")).map((f)=>fs.readFileSync(".next/server/app/"+f,"utf8")).join("");for(const f of fs.readdirSync(dir))if(/\\.js(\\.br)?$/.test(f)&&!pages.includes(f.replace(/\\.br$/,"")))fs.rmSync(dir+"/"+f)',
      ],
    ],
    tab: 'chunks',
    inject: toFaultImage,
    remove: toGoodImage,
    evidence: [/"path":\s*"\/_next\/static\/chunks\//, /"status":\s*404/],
    panelShows: ([, blocked]) => peak(blocked) > 0,
  },
];

/** The node-loss fault's id, so its release's name. */
const NODE_FAULT = 'node';

/**
 * A node's power cut (tools/cluster/node-power.mjs) under one of the release's two pods, the
 * other on a node that stays: the lost pod's target stops answering, and stays listed
 * (Terminating, as its silent node cannot confirm its end) until the node is back, so
 * MeridianTargetDown fires and holds while the release keeps serving and MeridianDown stays
 * quiet. Only the local cluster lets the game day cut a node's power, and only one with a node
 * besides the control plane's (`npm run cluster:up -- --nodes 3`); elsewhere the reason there
 * is none.
 * @param {{ local: boolean, nodes: import('../cluster/layout.mjs').ClusterNode[], log: (line: string) => void }} options
 * @returns {{ fault: Fault } | { skipped: string }}
 */
export function nodeLossFault({ local, nodes, log }) {
  const ownPods = `${fullnameOf(NODE_FAULT)}-`;
  if (!local) return { skipped: "it cuts a node's power, which the game day can do on the local cluster only" };
  // The first node holds the control plane: the lost node is the last, the kept one another.
  const lost = nodes.at(-1);
  const kept = nodes.find((node) => node !== lost && node.zone !== lost?.zone) ?? nodes[0];
  if (!lost?.netns || !kept) return { skipped: 'the local cluster has one node; start it with `npm run cluster:up -- --nodes 3`' };
  return {
    fault: {
      id: NODE_FAULT,
      title: `the power of node ${lost.name} cut, one of the release's two pods on it`,
      alert: 'MeridianTargetDown',
      firing: ['MeridianTargetDown'],
      notified: ['MeridianTargetDown'],
      node: lost.name,
      values: {
        replicaCount: 2,
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [lost.name, kept.name] }] },
              ],
            },
          },
        },
        // One pod on each node; the lost pod's successor waits for its node to come back.
        topologySpread: { whenUnsatisfiable: 'DoNotSchedule', constraints: [{ topologyKey: 'kubernetes.io/hostname', maxSkew: 1 }] },
      },
      inject: async ({ access, namespace }) => {
        // Any other release's pod there would go down with the node, and its alerts with it.
        const { stdout } = await access.kubectl([
          ...['get', 'pods', '--namespace', namespace, '--field-selector', `spec.nodeName=${lost.name}`],
          ...['--output', 'jsonpath={.items[*].metadata.name}'],
        ]);
        const others = stdout.split(' ').filter((pod) => pod && !pod.startsWith(ownPods));
        if (others.length) throw new Error(`gameday: ${NODE_FAULT}: pods of other releases run on ${lost.name}: ${others.join(', ')}`);
        await powerOffNode(lost);
      },
      remove: () => powerOnNode(ensureBinaries(log), lost, log),
      evidence: [new RegExp(`^${lost.name}\\s+NotReady`, 'm'), new RegExp(`^${ownPods}\\S+\\s.*\\s${lost.name}\\s`, 'm')],
      // One target down while the other keeps answering.
      panelShows: ([up, down]) => peak(down) >= 1 && trough(up) >= 1,
    },
  };
}

/** The release beside the faulty ones that gets the same traffic and tabs and no fault. */
export const HEALTHY = {
  id: 'healthy',
  load: CPU_LOAD,
  targets: STARVED_TARGETS,
  values: PROVISIONED,
  tab: /** @type {const} */ ('reloads'),
};
