// The CustomResourceDefinitions the chart's optional objects need (ServiceMonitor,
// PrometheusRule, HTTPRoute), from the projects' own sources, pinned as Go modules.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../lib/app-server.mjs';
import { kubectl } from './kubectl.mjs';

/** Pinned in tools/crds/go.mod (and go.sum): the projects that define the chart's optional kinds. */
const CRD_MODULE = path.join(ROOT, 'tools', 'crds');

/** @type {Record<string, string[]>} */
const CRD_FILES = {
  'github.com/prometheus-operator/prometheus-operator': [
    'example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml',
    'example/prometheus-operator-crd/monitoring.coreos.com_prometheusrules.yaml',
  ],
  'sigs.k8s.io/gateway-api': ['config/crd/standard/gateway.networking.k8s.io_httproutes.yaml'],
};

/** The module's source folder, downloaded (and checked against go.sum) when missing. */
function moduleDir(modulePath) {
  const out = execFileSync('go', ['mod', 'download', '-json', modulePath], {
    cwd: CRD_MODULE,
    encoding: 'utf8',
    // go.sum in the repository is the checksum authority; the public checksum database is not reachable here.
    env: { ...process.env, GOFLAGS: '-mod=readonly', GOSUMDB: 'off' },
  });
  return JSON.parse(out).Dir;
}

/** Applies the ServiceMonitor, PrometheusRule and HTTPRoute CRDs and waits until the API serves them. */
export async function installCustomResourceDefinitions() {
  const files = Object.entries(CRD_FILES).flatMap(([modulePath, relative]) =>
    relative.map((file) => path.join(moduleDir(modulePath), file)),
  );
  // Server-side: the prometheus-operator CRDs are too large for client-side apply's annotation.
  await kubectl(['apply', '--server-side', ...files.flatMap((file) => ['-f', file])]);
  await kubectl([
    'wait',
    '--for=condition=Established',
    '--timeout=60s',
    'crd/servicemonitors.monitoring.coreos.com',
    'crd/prometheusrules.monitoring.coreos.com',
    'crd/httproutes.gateway.networking.k8s.io',
  ]);
}
