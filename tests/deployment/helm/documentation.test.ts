import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { documentationGaps, valuesEntries, withValuesTable } from '../../../scripts/lib/helm-values-docs.mjs';
import { CHART_DIR, EVERY_FEATURE_VALUES, helm, RELEASE } from '../support/chart';

const valuesYaml = readFileSync(path.join(CHART_DIR, 'values.yaml'), 'utf8');
const schema = JSON.parse(readFileSync(path.join(CHART_DIR, 'values.schema.json'), 'utf8')) as { properties: Record<string, unknown> };

describe('values documentation', () => {
  it('describes every value in values.yaml with a `# --` comment, once on its path', () => {
    expect(documentationGaps(valuesYaml)).toEqual({ undocumented: [], doublyDocumented: [] });
  });

  it('keeps the chart README values table in step with values.yaml', () => {
    const readme = readFileSync(path.join(CHART_DIR, 'README.md'), 'utf8');

    expect(readme, 'run `node scripts/helm-values-table.mjs`').toBe(withValuesTable(readme, valuesYaml));
  });

  it('has a schema entry for every top-level value, and no entry for a value that does not exist', () => {
    const topLevel = Object.keys(parse(valuesYaml) as object).sort();

    expect(Object.keys(schema.properties).filter((key) => key !== 'global').sort()).toEqual(topLevel);
  });

  it('finds a comment-less key, so the check above can fail', () => {
    expect(documentationGaps('# -- Documented.\nreplicaCount: 2\nimage:\n  tag: ""\n')).toEqual({ undocumented: ['image.tag'], doublyDocumented: [] });
    expect(valuesEntries('# -- Documented.\nreplicaCount: 2\n')).toEqual([{ path: 'replicaCount', defaultJson: '2', description: 'Documented.', leaf: true }]);
  });
});

describe('NOTES.txt', () => {
  const notes = (args: string[]) => {
    const result = helm(['install', RELEASE, CHART_DIR, '--dry-run=client', '--namespace', 'site', ...args]);
    expect(result.status, result.stderr).toBe(0);
    return result.stdout.slice(result.stdout.indexOf('NOTES:'));
  };

  it('tells how to reach the site and the metrics through port-forwards by default', () => {
    const text = notes([]);

    expect(text).toContain('kubectl --namespace site port-forward service/web-meridian 8080:80');
    expect(text).toContain('kubectl --namespace site port-forward service/web-meridian-metrics 9464:9464');
    expect(text).toContain('http://127.0.0.1:9464/metrics');
    expect(text).toContain('helm test web --namespace site');
  });

  it('gives the Ingress URL when there is one', () => {
    const text = notes(['--values', EVERY_FEATURE_VALUES]);

    expect(text).toContain('https://www.example.com/');
    expect(text).toContain('job="meridian"');
  });
});
