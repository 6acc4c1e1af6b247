import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CHART_DIR } from '../support/chart';

interface ChartYaml {
  version: string;
  appVersion: string;
  kubeVersion: string;
  home?: string;
  icon?: string;
  sources?: string[];
  maintainers: { name: string; email?: string; url?: string }[];
  annotations: Record<string, string>;
}

const chart = parse(readFileSync(path.join(CHART_DIR, 'Chart.yaml'), 'utf8')) as ChartYaml;
const values = parse(readFileSync(path.join(CHART_DIR, 'values.yaml'), 'utf8')) as { image: { repository: string } };

describe('Chart.yaml', () => {
  it('supports Kubernetes from 1.29, 1.35 included', () => {
    expect(chart.kubeVersion).toBe('>=1.29.0-0');
  });

  it('has the metadata Artifact Hub and `helm search` show, and no address until the project has a real one', () => {
    expect(chart.maintainers[0]).toEqual({ name: 'Meridian maintainers' });
    expect(chart.annotations['artifacthub.io/license']).toBe('MIT');
    expect([chart.home, chart.icon, chart.sources]).toEqual([undefined, undefined, undefined]);
  });

  it('lists its changes as Artifact Hub reads them', () => {
    const changes = parse(chart.annotations['artifacthub.io/changes']!) as { kind: string; description: string }[];

    expect(changes.length).toBeGreaterThan(0);
    for (const change of changes) expect(['added', 'changed', 'deprecated', 'removed', 'fixed', 'security']).toContain(change.kind);
  });

  it('names the image it runs by default, repository:appVersion', () => {
    const images = parse(chart.annotations['artifacthub.io/images']!) as { name: string; image: string }[];

    expect(images).toEqual([{ name: 'meridian', image: `${values.image.repository}:${chart.appVersion}` }]);
  });
});
