// The chart's lifecycle on the local cluster, by the commands of docs/operations.md#helm:
// install and upgrade with one `helm upgrade --install --wait` from an explicit
// values file and the build id as the image tag, rollback, helm test.
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT } from '../lib/app-server.mjs';
import { waitFor } from '../lib/wait.mjs';
import { programmedNodePortDestinations } from './kube-proxy-rules.mjs';
import { helm, kubectl } from './kubectl.mjs';

/** @typedef {{ release: string, namespace: string }} ReleaseRef */

export const CHART_DIR = path.join(ROOT, 'helm', 'meridian');
/** That of docs/operations.md#helm: long enough for a rolling update of a few pods on a busy 2-core machine. */
const TIMEOUT = '10m';

/**
 * Values for a release on the local cluster: images imported (never pulled), two
 * replicas, the Service on a NodePort (reached at 127.0.0.1), tabs polling every
 * second, and the Prometheus Operator objects on. The build comes on the command line.
 * @param {number} nodePort
 * @param {Record<string, unknown>} [extra]
 */
export function localClusterValues(nodePort, extra = {}) {
  return {
    image: { repository: 'meridian', pullPolicy: 'Never' },
    replicaCount: 2,
    service: { type: 'NodePort', nodePort },
    app: { buildPollIntervalMs: 1000, logLevel: 'warn' },
    serviceMonitor: { enabled: true },
    prometheusRule: { enabled: true },
    ...extra,
  };
}

/** Writes `values` where `deployRelease` reads them. @param {string} valuesFile @param {object} values */
export function writeValuesFile(valuesFile, values) {
  writeFileSync(valuesFile, `${JSON.stringify(values, null, 2)}\n`);
}

/** A namespace whose pods must pass the restricted Pod Security profile. @param {string} namespace */
export async function createRestrictedNamespace(namespace) {
  const object = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: namespace,
      labels: { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'latest' },
    },
  };
  await kubectl(['apply', '-f', '-'], { input: JSON.stringify(object) });
}

/** How helm applies and waits: see deployArgs. @param {boolean} canary */
const helmApply = (canary) => (canary ? ['--wait=legacy', '--server-side=false'] : ['--wait']);

/**
 * The one command of docs/operations.md#helm for installing and for rolling out a build, as helm's arguments:
 * `helm upgrade --install <release> helm/meridian --namespace <ns> --create-namespace
 *  --wait --timeout 10m --values <file> --set-string image.tag=<build id>`
 * A canary release (`canary: true`) adds what docs/operations.md#canary-releases asks of Helm 4:
 * `--wait=legacy`, since its default waiter (kstatus) never sees an Argo Rollout as ready, and
 * `--server-side=false`, since server-side apply refuses to take back the stable and canary
 * Services' selectors, which Argo Rollouts edits.
 * `wait: false` leaves out the wait, for a release whose pods are meant to stay Pending.
 * @param {ReleaseRef & { valuesFile: string, tag: string, chart?: string, canary?: boolean, wait?: boolean }} options
 */
export function deployArgs({ release, namespace, valuesFile, tag, chart = CHART_DIR, canary = false, wait = true }) {
  return [
    'upgrade',
    '--install',
    release,
    chart,
    '--namespace',
    namespace,
    '--create-namespace',
    ...(wait ? helmApply(canary) : []),
    '--timeout',
    TIMEOUT,
    '--values',
    valuesFile,
    '--set-string',
    `image.tag=${tag}`,
  ];
}

/** @param {Parameters<typeof deployArgs>[0]} options */
export async function deployRelease(options) {
  return helm(deployArgs(options));
}

/**
 * `helm rollback <release> <revision> --namespace <ns> --wait --timeout 10m` (for a canary release, as deployArgs says)
 * @param {ReleaseRef & { revision: number, canary?: boolean }} ref
 */
export async function rollbackRelease({ release, namespace, revision, canary = false }) {
  return helm(['rollback', release, String(revision), '--namespace', namespace, ...helmApply(canary), '--timeout', TIMEOUT]);
}

/** `helm test <release> --namespace <ns>` @param {ReleaseRef} ref */
export async function testRelease({ release, namespace }) {
  return helm(['test', release, '--namespace', namespace, '--timeout', TIMEOUT]);
}

/** The release's revision number now. @param {ReleaseRef} ref @returns {Promise<number>} */
export async function currentRevision({ release, namespace }) {
  const { stdout } = await helm(['status', release, '--namespace', namespace, '--output', 'json']);
  return JSON.parse(stdout).version;
}

/** @param {ReleaseRef} ref */
export async function uninstallRelease({ release, namespace }) {
  await helm(['uninstall', release, '--namespace', namespace, '--wait', '--ignore-not-found']);
}

/**
 * The objects of `kind` in `namespace` with the release's instance label, parsed; through
 * `client`, the local cluster's kubectl unless another cluster's is given.
 * @param {string} kind @param {ReleaseRef} ref @param {(args: string[]) => Promise<{ stdout: string }>} [client]
 */
export async function releaseObjects(kind, { release, namespace }, client = kubectl) {
  const { stdout } = await client([
    'get',
    kind,
    '--namespace',
    namespace,
    '--selector',
    `app.kubernetes.io/instance=${release}`,
    '--output',
    'json',
  ]);
  return JSON.parse(stdout).items;
}

/** Answers in a row, each on a new connection, that show the app answering through the NodePort. */
const STEADY_ANSWERS = 20;

/**
 * The `ip:port` of each ready endpoint of the release's Service that has `nodePort`, as the
 * API server lists them in its EndpointSlices: what kube-proxy is to send that port to.
 * @param {ReleaseRef} ref
 * @param {number} nodePort
 * @returns {Promise<string[]>} sorted
 */
export async function readyEndpoints(ref, nodePort) {
  /** @type {{ metadata: { name: string }, spec: { ports?: { name?: string, nodePort?: number }[] } }[]} */
  const services = await releaseObjects('services', ref);
  const service = services.find((candidate) => candidate.spec.ports?.some((port) => port.nodePort === nodePort));
  if (!service) throw new Error(`no Service of release ${ref.release} in ${ref.namespace} has the NodePort ${nodePort}`);
  const portName = service.spec.ports?.find((port) => port.nodePort === nodePort)?.name ?? '';
  const { stdout } = await kubectl([
    'get',
    'endpointslices',
    '--namespace',
    ref.namespace,
    '--selector',
    `kubernetes.io/service-name=${service.metadata.name}`,
    '--output',
    'json',
  ]);
  /** @type {{ ports?: { name?: string, port?: number }[], endpoints?: { addresses: string[], conditions?: { ready?: boolean } }[] }[]} */
  const slices = JSON.parse(stdout).items;
  return slices
    .flatMap((slice) => {
      const port = slice.ports?.find((candidate) => (candidate.name ?? '') === portName)?.port;
      if (port === undefined) return [];
      const ready = (slice.endpoints ?? []).filter((endpoint) => endpoint.conditions?.ready);
      return ready.flatMap((endpoint) => endpoint.addresses.map((address) => `${address}:${port}`));
    })
    .sort();
}

/**
 * The status of one GET on a connection of its own, so that kube-proxy picks an endpoint for it.
 * @param {string} url
 * @returns {Promise<number>}
 */
function statusOnNewConnection(url) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, timeout: 5_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', reject);
  });
}

/**
 * Resolves once the release answers through its NodePort on loopback, without ever
 * knocking on the port before kube-proxy has programmed it. helm --wait returns when the
 * pods are Ready; kube-proxy translates the NodePort a moment later, and until then rejects
 * it. A rejected connection leaves a conntrack entry that was never translated (SYN_SENT,
 * kept 120 s): a later connection from this machine that happens to reuse its source port
 * matches that entry, skips kube-proxy's DNAT and is refused, long after the Service has
 * endpoints. So no probe is sent until the nat table
 * sends the port to exactly the Service's ready endpoints; then new connections must answer.
 * @param {ReleaseRef} ref
 * @param {number} nodePort
 */
export async function waitForNodePort(ref, nodePort) {
  await waitFor(
    `kube-proxy to send the NodePort ${nodePort} to the ready endpoints of ${ref.release} in ${ref.namespace}`,
    async () => {
      const [wanted, programmed] = await Promise.all([readyEndpoints(ref, nodePort), programmedNodePortDestinations(nodePort)]);
      if (wanted.length === 0 || wanted.join() !== programmed.join())
        throw new Error(`ready endpoints [${wanted.join(', ')}], translated to [${programmed.join(', ')}]`);
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
  const url = `http://127.0.0.1:${nodePort}/readyz`;
  await waitFor(
    `the NodePort ${nodePort} to answer ${STEADY_ANSWERS} connections in a row`,
    async () => {
      for (let answered = 0; answered < STEADY_ANSWERS; answered += 1) {
        const status = await statusOnNewConnection(url);
        if (status !== 200) throw new Error(`HTTP ${status} after ${answered} in a row`);
      }
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );
}
