import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDebianPackages } from '../../../tools/debian-packages.mjs';
import { EVERY_FEATURE_VALUES, renderText, type RenderOptions } from '../support/chart';

/**
 * The field's chart scanners read manifests with PyYAML, a YAML 1.1 loader: Checkov refuses
 * a file it cannot load and, scanning nothing, passes. Each render of a small matrix, common
 * values and unusual but valid ones, must load in it.
 */
const MATRIX: { name: string; values: Record<string, unknown>; options?: RenderOptions }[] = [
  { name: 'the defaults', values: {} },
  {
    name: 'every feature, an AlertmanagerConfig among them',
    values: {
      alertmanagerConfig: {
        enabled: true,
        receivers: [{ name: 'on-call' }],
        receiverBySeverity: { critical: 'on-call', warning: 'on-call' },
      },
    },
    options: { files: [EVERY_FEATURE_VALUES], args: ['--api-versions', 'monitoring.coreos.com/v1alpha1/AlertmanagerConfig'] },
  },
  {
    name: 'the canary',
    values: { rollout: { strategy: 'canary', canary: { analysis: { prometheusAddress: 'http://prometheus:9090' } } } },
  },
  {
    name: 'unusual values: all-digit names, a label in commonLabels and podLabels, an IPv6 OTLP endpoint, an ephemeral-storage limit alone',
    values: {
      commonLabels: { 'example.com/team': 'web' },
      podLabels: { 'example.com/team': 'checkout' },
      networkPolicy: { enabled: true },
      app: { otel: { exporterOtlpEndpoint: 'http://[fd00::1]' } },
      resources: { limits: { memory: '512Mi', 'ephemeral-storage': '256Mi' } },
      emptyDirSizeLimit: '100Mi',
    },
    options: { release: '2026', namespace: '0123' },
  },
];

/** PyYAML's error for a stream of manifests, or '' when every document loads. */
function pyYamlError(manifests: string): string {
  const load = spawnSync('python3', ['-c', 'import sys, yaml\nfor _ in yaml.safe_load_all(sys.stdin): pass'], {
    input: manifests,
    encoding: 'utf8',
  });
  if (load.error) throw load.error;
  return load.status === 0 ? '' : load.stderr.trim().split('\n').slice(-4).join('\n');
}

describe("the chart's renders in PyYAML", () => {
  beforeAll(() => {
    ensureDebianPackages(['python3-yaml']);
  });

  it('refuses what YAML 1.1 reads as something else: a bare = (the loader works)', () => {
    expect(pyYamlError('matchType: =\n')).toMatch(/could not determine a constructor|value/);
    expect(pyYamlError('matchType: "="\n')).toBe('');
  });

  it.each(MATRIX)('load with $name', ({ values, options }) => {
    expect(pyYamlError(renderText(values, options))).toBe('');
  });
});
