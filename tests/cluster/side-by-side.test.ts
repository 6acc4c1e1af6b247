import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { CLUSTER_BUILDS } from '../../tools/cluster/app-images.mjs';
import { deployRelease, releaseObjects } from '../../tools/cluster/release.mjs';
import { buildIdOfPage } from '../../tools/rollout/answered-build.mjs';
import { runClusterRollout, startReleasePrometheus } from '../../tools/rollout/cluster-scenario.mjs';
import { expectNoFailedRequest, installBuildA, webPods } from './support/releases';

// Staging and production of the same site, in two namespaces of one cluster.
const staging = { release: 'meridian', namespace: 'meridian-staging' };
const production = { release: 'meridian', namespace: 'meridian-production' };
const NODE_PORTS = { staging: 30083, production: 30084 };
const withDashboard = { grafanaDashboard: { enabled: true } };

interface Dashboard {
  uid: string;
  templating: { list: { name: string; query?: string }[] };
}

async function dashboardOf(ref: { release: string; namespace: string }): Promise<Dashboard> {
  const [configMap] = await releaseObjects('configmaps', ref).then((maps) =>
    maps.filter((map: { metadata: { name: string } }) => map.metadata.name.endsWith('-dashboard')),
  );
  return JSON.parse(Object.values(configMap.data as Record<string, string>)[0]!) as Dashboard;
}

describe('two releases side by side on one cluster', () => {
  let installed: Awaited<ReturnType<typeof installBuildA>>[] = [];
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'meridian-side-by-side-'));
    installed = [
      await installBuildA(staging, NODE_PORTS.staging, withDashboard),
      await installBuildA(production, NODE_PORTS.production, withDashboard),
    ];
  });
  afterAll(async () => {
    for (const release of installed) await release.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  test("each release's dashboard has its own uid and is fixed to its own job and namespace", async () => {
    const dashboards = await Promise.all([staging, production].map(dashboardOf));
    expect(new Set(dashboards.map((dashboard) => dashboard.uid)).size).toBe(2);
    for (const [index, ref] of [staging, production].entries()) {
      const variables = Object.fromEntries(dashboards[index]!.templating.list.map((variable) => [variable.name, variable.query]));
      expect(variables).toMatchObject({ job: `${ref.release}-metrics`, namespace: ref.namespace });
    }
  });

  test("each release's rules read only its own two pods, in one Prometheus scraping both", async () => {
    const prometheus = await startReleasePrometheus([staging, production], dir);
    try {
      // Every selector of a release's rules carries its job and namespace: `up` through them counts its own pods.
      for (const ref of [staging, production]) {
        const [rule] = await releaseObjects('prometheusrules.monitoring.coreos.com', ref);
        const rules = rule.spec.groups.flatMap((group: { rules: { expr: string }[] }) => group.rules);
        for (const { expr } of rules) expect(expr).not.toContain('job="meridian"');
        const scope = `job="${ref.release}-metrics", namespace="${ref.namespace}"`;
        expect(rules.some(({ expr }: { expr: string }) => expr.includes(scope))).toBe(true);
        // Until both pods of the release are scraped as up.
        await vi.waitFor(
          async () => {
            const [sample] = await prometheus.query(`count(up{${scope}} == 1)`);
            if (sample?.value[1] !== '2') throw new Error(`count is ${sample?.value[1] ?? 'none'}`);
          },
          { timeout: 30_000, interval: 500 },
        );
      }
      // The recorded series of both releases coexist, each labelled with its own namespace.
      // Until both releases record their availability objective.
      await vi.waitFor(
        async () => {
          const samples = await prometheus.query('meridian:slo_availability_objective');
          const namespaces = samples.map((sample) => sample.metric.namespace).sort();
          if (namespaces.join() !== [production.namespace, staging.namespace].sort().join())
            throw new Error(`namespaces: ${namespaces.join(', ')}`);
        },
        { timeout: 30_000, interval: 500 },
      );
    } finally {
      await prometheus.stop();
    }
  });

  test('upgrading production by tag under load fails no request and leaves staging as it was', async () => {
    const stagingPodsBefore = (await webPods(staging)).map((pod) => pod.metadata.name).sort();
    const result = await runClusterRollout({
      releaseRef: production,
      nodePort: NODE_PORTS.production,
      from: CLUSTER_BUILDS.a,
      to: CLUSTER_BUILDS.b,
      change: () => deployRelease({ ...production, valuesFile: installed[1]!.valuesFile, tag: CLUSTER_BUILDS.b }),
    });
    expectNoFailedRequest(result.traffic, result.events);
    expect(result.prometheus.runningAfter).toEqual({ [CLUSTER_BUILDS.b]: 2 });
    expect((await webPods(staging)).map((pod) => pod.metadata.name).sort()).toEqual(stagingPodsBefore);
    const page = await fetch(`http://127.0.0.1:${NODE_PORTS.staging}/`).then((response) => response.text());
    expect(buildIdOfPage(page)).toBe(CLUSTER_BUILDS.a);
  });
});
