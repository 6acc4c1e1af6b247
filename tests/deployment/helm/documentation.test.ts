import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { documentationGaps, valuesEntries, withValuesTable } from '../../../tools/helm-values-table/helm-values-docs.mjs';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { CHART_DIR, EVERY_FEATURE_VALUES, helm, RELEASE } from '../support/chart';

const valuesYaml = readFileSync(path.join(CHART_DIR, 'values.yaml'), 'utf8');
const schema = JSON.parse(readFileSync(path.join(CHART_DIR, 'values.schema.json'), 'utf8')) as { properties: Record<string, unknown> };

/** The text of one `## ` section of the chart README. */
function chartReadmeSection(heading: string): string {
  const readme = readFileSync(path.join(CHART_DIR, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`the chart README has no section "${heading}"`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

describe('values documentation', () => {
  it('describes every value in values.yaml with a `# --` comment, once on its path', () => {
    expect(documentationGaps(valuesYaml)).toEqual({ undocumented: [], doublyDocumented: [] });
  });

  it('keeps the chart README values table in step with values.yaml', () => {
    const readme = readFileSync(path.join(CHART_DIR, 'README.md'), 'utf8');

    expect(readme, 'run `npm run helm:values-table`').toBe(withValuesTable(readme, valuesYaml));
  });

  it('has a schema entry for every value, and no entry for a value that does not exist', () => {
    type Schema = { properties?: Record<string, Schema>; $ref?: string; additionalProperties?: unknown };
    const definitions = (schema as unknown as { definitions: Record<string, Schema> }).definitions;
    const resolve = (node: Schema): Schema => (node.$ref ? resolve(definitions[node.$ref.split('/').pop()!]!) : node);
    // Every key of values.yaml, walked down as far as the schema lists properties (maps of free keys stop there).
    const missing: string[] = [];
    const walk = (values: Record<string, unknown>, node: Schema, where: string) => {
      const properties = resolve(node).properties;
      if (!properties) return;
      for (const [key, value] of Object.entries(values)) {
        const child = properties[key];
        if (!child) missing.push(`${where}${key}`);
        else if (value && typeof value === 'object' && !Array.isArray(value))
          walk(value as Record<string, unknown>, child, `${where}${key}.`);
      }
    };
    walk(parse(valuesYaml) as Record<string, unknown>, schema as unknown as Schema, '');

    expect(missing).toEqual([]);
    expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(parse(valuesYaml) as object).sort());
  });

  it('finds a comment-less key, so the check above can fail', () => {
    expect(documentationGaps('# -- Documented.\nreplicaCount: 2\nimage:\n  tag: ""\n')).toEqual({
      undocumented: ['image.tag'],
      doublyDocumented: [],
    });
    expect(valuesEntries('# -- Documented.\nreplicaCount: 2\n')).toEqual([
      { path: 'replicaCount', defaultJson: '2', description: 'Documented.', leaf: true },
    ]);
  });
});

describe('the operations guide’s Helm commands, which SREs copy and the cluster tests run', () => {
  const readme = readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
  const chartReadme = readFileSync(path.join(CHART_DIR, 'README.md'), 'utf8');
  /** Every `helm install|upgrade` command of the shell blocks, continuation lines joined. */
  const helmCommands = (markdown: string) =>
    [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)]
      .flatMap((block) => block[1]!.replace(/\s*\\\n\s*/g, ' ').split('\n'))
      .filter((line) => /^helm (install|upgrade)\b/.test(line.trim()));

  it('install and upgrade with `helm upgrade --install --wait` (`--wait=legacy` for a canary) and an explicit values file, never reusing the last release’s values', () => {
    const commands = [...helmCommands(readme), ...helmCommands(chartReadme)];

    expect(commands.length).toBeGreaterThanOrEqual(4);
    for (const command of commands) {
      expect(command, command).toMatch(
        /^helm upgrade --install \S+ helm\/meridian --namespace \S+ (--create-namespace )?--wait(=legacy)? (--server-side=(true|false) )?--timeout \S+ --values \S+/,
      );
      // --reuse-values keeps old defaults after a chart upgrade; the values file is the whole truth instead.
      expect(command, command).not.toMatch(/--reuse-values|--reset-then-reuse-values/);
    }
  });

  it('upgrade by tag with the same command and --set-string image.tag (a digits-only id stays a string)', () => {
    for (const markdown of [readme, chartReadme])
      expect(helmCommands(markdown)).toContainEqual(expect.stringMatching(/--values \S+ --set-string image\.tag=<new build id>$/));
  });

  it('roll back with --wait too', () => {
    expect(readme).toMatch(/helm rollback \S+ <revision> --namespace \S+ --wait --timeout \S+/);
  });
});

describe('the chart README on turning autoscaling on in a live release', () => {
  const section = chartReadmeSection('Turning autoscaling on');

  it('says the Deployment falls to 1 pod until the autoscaler scales up', () => {
    expect(section).toContain('Kubernetes resets a removed `replicas` to 1');
  });

  it('hands `replicas` to another field manager before the upgrade that turns autoscaling on', () => {
    const handover = section.indexOf('--field-manager=handover-to-hpa');

    expect(handover).toBeGreaterThan(0);
    expect(section.indexOf('helm upgrade --install', handover)).toBeGreaterThan(handover);
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

  it('says what turning autoscaling on does to a live release, and gives this release’s handover command', () => {
    const text = notes(['--set', 'autoscaling.enabled=true']);

    expect(text).toContain('Kubernetes resets to 1: every pod but one stops');
    expect(text).toContain('"metadata": {"name": "web-meridian"}');
    expect(text).toContain('kubectl --namespace site apply --server-side --field-manager=handover-to-hpa --validate=false -f -');
    expect(notes([])).not.toContain('handover-to-hpa');
  });

  it('watches the Rollout under the canary, not the Deployment that then runs no pod', () => {
    const canary = notes(['--set', 'rollout.strategy=canary,rollout.canary.analysis.prometheusAddress=http://prometheus:9090']);

    expect(canary).toContain('kubectl argo rollouts --namespace site status web-meridian');
    expect(canary).not.toContain('rollout status deployment/');
    expect(notes([])).toContain('kubectl --namespace site rollout status deployment/web-meridian');
  });

  it('says the alerts carry no runbook link until prometheusRule.runbookBaseUrl is set', () => {
    const monitoring = ['--set', 'serviceMonitor.enabled=true,prometheusRule.enabled=true'];

    expect(notes(monitoring)).toContain('The alerts carry no runbook_url: set prometheusRule.runbookBaseUrl');
    expect(notes([...monitoring, '--set', 'prometheusRule.runbookBaseUrl=https://github.com/acme/meridian/blob/main/'])).not.toContain(
      'runbook_url',
    );
  });

  it('gives the Ingress URL when there is one', () => {
    const text = notes(['--values', EVERY_FEATURE_VALUES]);

    expect(text).toContain('https://www.example.com/');
    expect(text).toContain('job="web-meridian-metrics" in namespace web-prod');
  });
});
