import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CHART_DIR, render } from '../support/chart';
import { deploymentOf, testPodOf, webContainerOf } from '../support/workload';

const appVersion = (parse(readFileSync(path.join(CHART_DIR, 'Chart.yaml'), 'utf8')) as { appVersion: string }).appVersion;
const checksumOf = (values: Record<string, unknown>) => deploymentOf(render(values)).spec?.template.metadata?.annotations?.['checksum/config'];

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

    expect(selector).toEqual({ 'app.kubernetes.io/name': 'meridian', 'app.kubernetes.io/instance': 'web', 'app.kubernetes.io/component': 'web' });
  });

  it('pins the digest after the tag when one is set', () => {
    const digest = `sha256:${'a'.repeat(64)}`;

    expect(webContainerOf(render({ image: { repository: 'registry.example.com/meridian', tag: 'b1', digest } })).image).toBe(
      `registry.example.com/meridian:b1@${digest}`,
    );
  });
});

describe('the config checksum', () => {
  const baseline = checksumOf({});

  it('is a sha256 of the settings', () => {
    expect(baseline).toMatch(/^[a-f0-9]{64}$/);
  });

  it.each([
    ['app.logLevel', { app: { logLevel: 'debug' } }],
    ['app.buildPollIntervalMs', { app: { buildPollIntervalMs: 30000 } }],
    ['app.otel.exporterOtlpEndpoint', { app: { otel: { exporterOtlpEndpoint: 'http://collector:4318' } } }],
    ['app.otel.env', { app: { otel: { env: { OTEL_TRACES_SAMPLER: 'always_off' } } } }],
    ['app.shutdownDelayMs', { app: { shutdownDelayMs: 8000 } }],
  ])('changes when %s changes, so the pods roll', (_key, values) => {
    expect(checksumOf(values)).not.toBe(baseline);
  });

  it('stays the same when nothing the pods read changes', () => {
    expect(checksumOf({ replicaCount: 5, service: { port: 8080 } })).toBe(baseline);
  });
});
