import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CHART_DIR, render, renderError } from '../support/chart';
import { deploymentOf, testPodOf, webContainerOf } from '../support/workload';

const appVersion = (parse(readFileSync(path.join(CHART_DIR, 'Chart.yaml'), 'utf8')) as { appVersion: string }).appVersion;
/** The ConfigMap the pods take their settings from, as the pod template names it. */
const settingsMapOf = (values: Record<string, unknown>) => webContainerOf(render(values)).envFrom?.[0]?.configMapRef?.name;

describe('rolling out', () => {
  it('rolls with maxUnavailable 0, so capacity never drops', () => {
    expect(deploymentOf(render()).spec?.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '25%' } });
  });

  it('runs the chart appVersion as the image tag and version label by default', () => {
    const objects = render();

    expect(webContainerOf(objects).image).toBe(`meridian:${appVersion}`);
    expect(deploymentOf(objects).spec?.template.metadata?.labels?.['app.kubernetes.io/version']).toBe(appVersion);
  });

  it('rolls out a new build with --set image.tag: image, version labels and the helm test follow it', () => {
    const objects = render({}, { args: ['--set', 'image.tag=20261122.1-9f8e7d6'] });
    const deployment = deploymentOf(objects);

    expect(webContainerOf(objects).image).toBe('meridian:20261122.1-9f8e7d6');
    expect(deployment.metadata?.labels?.['app.kubernetes.io/version']).toBe('20261122.1-9f8e7d6');
    expect(deployment.spec?.template.metadata?.labels?.['app.kubernetes.io/version']).toBe('20261122.1-9f8e7d6');
    expect(testPodOf(objects).spec?.containers[0]?.image).toBe('meridian:20261122.1-9f8e7d6');
    expect(testPodOf(objects).spec?.containers[0]?.env).toContainEqual({ name: 'EXPECTED_BUILD_ID', value: '20261122.1-9f8e7d6' });
  });

  it('keeps the version out of the selector, which a Deployment can never change', () => {
    const selector = deploymentOf(render({ image: { tag: 'next-build' } })).spec?.selector.matchLabels;

    expect(selector).toEqual({
      'app.kubernetes.io/name': 'meridian',
      'app.kubernetes.io/instance': 'web',
      'app.kubernetes.io/component': 'web',
    });
  });

  it('runs repository@digest when a digest is set, with the build named by image.buildId everywhere the chart says what runs', () => {
    const digest = `sha256:${'a'.repeat(64)}`;
    const objects = render({ image: { repository: 'registry.example.com/meridian', digest, buildId: 'b1' } });

    expect(webContainerOf(objects).image).toBe(`registry.example.com/meridian@${digest}`);
    expect(deploymentOf(objects).spec?.template.metadata?.labels?.['app.kubernetes.io/version']).toBe('b1');
    expect(testPodOf(objects).spec?.containers[0]?.image).toBe(`registry.example.com/meridian@${digest}`);
    expect(testPodOf(objects).spec?.containers[0]?.env).toContainEqual({ name: 'EXPECTED_BUILD_ID', value: 'b1' });
  });

  it('refuses a tag beside a digest, so an upgrade by tag over a kept digest fails instead of relabelling the old image', () => {
    const digest = `sha256:${'a'.repeat(64)}`;
    const message = renderError({ image: { digest, buildId: 'b1' } }, { args: ['--set-string', 'image.tag=b2'] });

    expect(message).toContain('image.tag=b2 and image.digest are both set: the digest replaces the tag');
  });

  it('refuses a digest without the build id it was built as', () => {
    expect(renderError({ image: { digest: `sha256:${'a'.repeat(64)}` } })).toContain('image.digest needs image.buildId');
  });

  it('puts global.imageRegistry in front of the repository', () => {
    expect(webContainerOf(render({ global: { imageRegistry: 'mirror.example.com:5000' }, image: { tag: 'b1' } })).image).toBe(
      'mirror.example.com:5000/meridian:b1',
    );
  });

  it('works with images loaded into the nodes, which no registry serves: pullPolicy Never', () => {
    const objects = render({ image: { tag: 'b1', pullPolicy: 'Never' } });

    expect(webContainerOf(objects).imagePullPolicy).toBe('Never');
    expect(testPodOf(objects).spec?.containers[0]?.imagePullPolicy).toBe('Never');
  });
});

describe('the pod template and the chart version', () => {
  /** The chart as it would be after bumping only its version. */
  function chartWithVersion(version: string): string {
    const copy = mkdtempSync(path.join(tmpdir(), 'meridian-chart-'));
    cpSync(CHART_DIR, copy, { recursive: true });
    const chartYaml = path.join(copy, 'Chart.yaml');
    writeFileSync(chartYaml, readFileSync(chartYaml, 'utf8').replace(/^version: .*$/m, `version: ${version}`));
    return copy;
  }

  it('carries no helm.sh/chart label, so a chart release that changes nothing else rolls no pod', () => {
    const bumped = chartWithVersion('99.0.0');
    const before = render({ image: { tag: 'b1' } });
    const after = render({ image: { tag: 'b1' } }, { chartDir: bumped });

    expect(deploymentOf(before).spec?.template.metadata?.labels).not.toHaveProperty('helm.sh/chart');
    expect(deploymentOf(after).metadata?.labels?.['helm.sh/chart']).toBe('meridian-99.0.0');
    expect(deploymentOf(after).spec?.template).toEqual(deploymentOf(before).spec?.template);
  });
});

describe("the settings' ConfigMap", () => {
  const baseline = settingsMapOf({});

  it('is named by a hash of the settings, and is the only one helm template renders', () => {
    expect(baseline).toMatch(/^web-meridian-env-[a-f0-9]{10}$/);
    const maps = render().filter((object) => object.kind === 'ConfigMap');
    expect(maps.map((map) => map.metadata.name)).toEqual([baseline]);
  });

  it.each([
    ['app.logLevel', { app: { logLevel: 'debug' } }],
    ['app.buildPollIntervalMs', { app: { buildPollIntervalMs: 30000 } }],
    ['app.otel.exporterOtlpEndpoint', { app: { otel: { exporterOtlpEndpoint: 'http://collector:4318' } } }],
    ['app.otel.env', { app: { otel: { env: { OTEL_TRACES_SAMPLER: 'always_off' } } } }],
    ['app.shutdownDelayMs', { app: { shutdownDelayMs: 8000 } }],
  ])('is another when %s changes, so the pods roll and each build keeps its own', (_key, values) => {
    expect(settingsMapOf(values)).not.toBe(baseline);
  });

  it('stays the same when nothing the pods read changes, the build included', () => {
    expect(settingsMapOf({ replicaCount: 5, service: { port: 8080 }, image: { tag: 'another-build' } })).toBe(baseline);
  });
});
