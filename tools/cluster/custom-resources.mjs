// CustomResourceDefinitions from the projects' own sources, pinned as Go modules
// (tools/pins.mjs): the ones the chart's optional objects need (ServiceMonitor,
// PrometheusRule, HTTPRoute, from tools/crds) and Argo Rollouts' (from the module its
// controller is built from, tools/argo-rollouts).
import path from 'node:path';
import { ROOT } from '../lib/app-server.mjs';
import { runSync } from '../lib/command.mjs';
import { kubectl } from './kubectl.mjs';

/**
 * The CRD files of each module, by the folder of our Go module requiring it (its go.sum
 * checks the download).
 * @type {Record<string, Record<string, string[]>>}
 */
const CRD_FILES = {
  'tools/crds': {
    'github.com/prometheus-operator/prometheus-operator': [
      'example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml',
      'example/prometheus-operator-crd/monitoring.coreos.com_prometheusrules.yaml',
    ],
    'sigs.k8s.io/gateway-api': ['config/crd/standard/gateway.networking.k8s.io_httproutes.yaml'],
  },
  'tools/argo-rollouts': {
    'github.com/argoproj/argo-rollouts': ['rollout', 'analysis-template', 'cluster-analysis-template', 'analysis-run', 'experiment'].map(
      (name) => `manifests/crds/${name}-crd.yaml`,
    ),
  },
};

/**
 * The source folder of a module our Go module `goModuleDir` requires, downloaded (and
 * checked against go.sum) when missing.
 * @param {string} goModuleDir @param {string} modulePath
 */
export function moduleSourceDir(goModuleDir, modulePath) {
  const { stdout: out } = runSync('go', ['mod', 'download', '-json', modulePath], {
    cwd: path.join(ROOT, goModuleDir),
    // go.sum in the repository is the checksum authority; the public checksum database is not reachable here.
    env: { ...process.env, GOFLAGS: '-mod=readonly', GOSUMDB: 'off' },
  });
  return JSON.parse(out).Dir;
}

/** The CRD files of the modules our Go module `goModuleDir` pins (the chart tests validate against them too). @param {keyof typeof CRD_FILES} goModuleDir */
export function crdFiles(goModuleDir) {
  return Object.entries(CRD_FILES[goModuleDir] ?? {}).flatMap(([modulePath, files]) =>
    files.map((file) => path.join(moduleSourceDir(goModuleDir, modulePath), file)),
  );
}

/**
 * Applies CRD files and waits until the API serves each CRD named.
 * @param {string[]} files @param {string[]} names
 */
async function applyCrds(files, names) {
  // Server-side: these CRDs are too large for client-side apply's annotation.
  await kubectl(['apply', '--server-side', ...files.flatMap((file) => ['-f', file])]);
  await kubectl(['wait', '--for=condition=Established', '--timeout=60s', ...names.map((name) => `crd/${name}`)]);
}

/** Applies the ServiceMonitor, PrometheusRule and HTTPRoute CRDs and waits until the API serves them. */
export async function installCustomResourceDefinitions() {
  await applyCrds(crdFiles('tools/crds'), [
    'servicemonitors.monitoring.coreos.com',
    'prometheusrules.monitoring.coreos.com',
    'httproutes.gateway.networking.k8s.io',
  ]);
}

/** Applies Argo Rollouts' CRDs (Rollout, AnalysisTemplate, ClusterAnalysisTemplate, AnalysisRun, Experiment), from its pinned source. */
export async function installArgoRolloutsCrds() {
  await applyCrds(crdFiles('tools/argo-rollouts'), [
    'rollouts.argoproj.io',
    'analysistemplates.argoproj.io',
    'clusteranalysistemplates.argoproj.io',
    'analysisruns.argoproj.io',
    'experiments.argoproj.io',
  ]);
}
