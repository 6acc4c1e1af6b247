import path from 'node:path';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/** The test files on the live cluster: it is prepared once per run, and their logs kept. */
const onTheCluster: TestProjectInlineConfiguration['test'] = {
  environment: 'node',
  globalSetup: ['tests/cluster/support/global-setup.ts'],
  setupFiles: ['tests/cluster/support/keep-component-logs.ts'],
  // One release at a time: each file's load test gets the CPUs to itself.
  fileParallelism: false,
  testTimeout: 600_000,
  hookTimeout: 600_000,
};

export default defineConfig({
  resolve: {
    alias: { '@': path.resolve(import.meta.dirname, 'src') },
  },
  test: {
    projects: [
      {
        extends: true,
        // The limit is for hangs only: npm test runs this project beside the heavy ones on two cores.
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', testTimeout: 30_000 },
      },
      {
        // Set-up code on a machine made fresh without a Debian package (a disposable root): no build.
        extends: true,
        test: { name: 'set-up', include: ['tests/set-up/**/*.test.ts'], environment: 'node', testTimeout: 120_000, hookTimeout: 300_000 },
      },
      {
        // Real server processes on real ports, against the production build.
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/integration/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // A rollout under load: haproxy, Prometheus and Chromium around app processes replaced one by one.
        extends: true,
        test: {
          name: 'rollout',
          include: ['tests/rollout/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/integration/support/global-setup.ts'],
          testTimeout: 180_000,
          // After the other projects, alone: its timings (health checks against
          // the shutdown delay) should not compete with them for the CPUs.
          sequence: { groupOrder: 1 },
        },
      },
      {
        // The deployment artefacts proven with real tools: a Docker engine, helm.
        extends: true,
        test: {
          name: 'deployment',
          include: ['tests/deployment/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/deployment/support/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 1_200_000,
        },
      },
      {
        // The chart on a live single-node Kubernetes (npm run cluster:up): install,
        // helm test, upgrade and rollback under load, disruptions, monitoring objects.
        extends: true,
        test: {
          ...onTheCluster,
          name: 'cluster',
          include: ['tests/cluster/**/*.test.ts'],
          exclude: ['tests/cluster/canary-*.test.ts', 'tests/cluster/nodes/**'],
          sequence: { groupOrder: 2 },
        },
      },
      {
        // Canary releases judged by Argo Rollouts on the same cluster, one file at a time, after
        // the cluster project's files: beside them (the game day's releases above all) the
        // visitors' browsers of a canary were too slow to report its LCP.
        extends: true,
        test: {
          ...onTheCluster,
          name: 'cluster-canary',
          include: ['tests/cluster/canary-*.test.ts'],
          sequence: { groupOrder: 3 },
        },
      },
      {
        // cluster:up and cluster:down as a user runs them, after the cluster suite's files:
        // they reuse, kill and stop the cluster that suite started (or start their own).
        extends: true,
        test: {
          name: 'cluster-script',
          include: ['tests/cluster-script/**/*.test.ts'],
          environment: 'node',
          testTimeout: 600_000,
          hookTimeout: 600_000,
          sequence: { groupOrder: 4 },
        },
      },
      {
        // Node-shaped disruptions on a cluster of three nodes in two zones, after the cluster
        // script tests have stopped the one-node cluster: the first file starts it, the
        // others reuse it, and the suite's global teardown stops it.
        extends: true,
        test: {
          ...onTheCluster,
          name: 'cluster-nodes',
          include: ['tests/cluster/nodes/**/*.test.ts'],
          sequence: { groupOrder: 5 },
        },
      },
      {
        // The host after every suite: run alone and last by npm test, against the package set it recorded first.
        extends: true,
        test: {
          name: 'host',
          include: ['tests/host/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          sequence: { groupOrder: 5 },
        },
      },
    ],
  },
});
