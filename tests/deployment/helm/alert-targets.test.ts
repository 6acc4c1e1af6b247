import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHART_DIR, EVERY_FEATURE_VALUES, kinds, render, renderError } from '../support/chart';

/** The PrometheusRule with a ServiceMonitor for its job: the setup every case below breaks once. */
const RULES = { serviceMonitor: { enabled: true }, prometheusRule: { enabled: true } };
const FOREVER = 'MeridianDown would page forever';

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the chart whose NetworkPolicy template renders `policy`, whatever the values say of it. */
function chartWithNetworkPolicy(policy: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-policy-'));
  copies.push(dir);
  cpSync(CHART_DIR, dir, { recursive: true });
  writeFileSync(path.join(dir, 'templates', 'networkpolicy.yaml'), `{{- if .Values.networkPolicy.enabled -}}\n${policy}{{- end }}\n`);
  return dir;
}

const policy = (ingress: string, policyTypes = '[Ingress]') => `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: isolating
spec:
  podSelector: {}
  policyTypes: ${policyTypes}
  ingress:
${ingress}`;
const HTTP_ONLY = '    - ports: [{ port: http }]\n';

describe('alert rules whose target cannot exist', () => {
  it('render with their ServiceMonitor, and with every feature on', () => {
    expect(kinds(render(RULES))).toEqual(expect.arrayContaining(['PrometheusRule', 'ServiceMonitor']));
    expect(kinds(render({}, { files: [EVERY_FEATURE_VALUES] }))).toEqual(expect.arrayContaining(['PrometheusRule', 'NetworkPolicy']));
  });

  it('are refused without the ServiceMonitor that creates their job', () => {
    const message = renderError({ prometheusRule: { enabled: true } });

    expect(message).toContain('prometheusRule.enabled needs serviceMonitor.enabled');
    expect(message).toContain('job="web-meridian-metrics" in namespace "site"');
    expect(message).toContain(FOREVER);
  });

  it.each([
    [
      'a replace into job (the default action)',
      'relabelings',
      { sourceLabels: ['__meta_kubernetes_service_name'], targetLabel: 'job' },
      'job',
    ],
    ['a Replace into namespace', 'relabelings', { action: 'Replace', replacement: 'web', targetLabel: 'namespace' }, 'namespace'],
    ['a hashmod into job', 'relabelings', { action: 'hashmod', modulus: 2, sourceLabels: ['__address__'], targetLabel: 'job' }, 'job'],
    ['a labeldrop of namespace', 'relabelings', { action: 'labeldrop', regex: 'name.*' }, 'namespace'],
    ['a labelkeep without job', 'metricRelabelings', { action: 'labelkeep', regex: '__name__|instance|namespace|le' }, 'job'],
    ['a labelmap onto job', 'metricRelabelings', { action: 'labelmap', regex: 'service', replacement: 'job' }, 'job'],
  ])('are refused with %s', (_label, field, relabeling, label) => {
    const message = renderError({ ...RULES, serviceMonitor: { enabled: true, [field]: [relabeling] } });

    expect(message).toContain(`serviceMonitor.${field}[0]`);
    expect(message).toContain(`the ${label} label the alert rules and the dashboard select`);
    expect(message).toContain(FOREVER);
  });

  it('render with relabelings that leave job and namespace alone', () => {
    const relabelings = [
      { sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'node' },
      { action: 'labeldrop', regex: 'pod_template_hash' },
      { action: 'labelkeep', regex: '__.*|job|namespace|instance|pod' },
      { action: 'drop', sourceLabels: ['__meta_kubernetes_pod_phase'], regex: 'Pending' },
    ];

    expect(() => render({ ...RULES, serviceMonitor: { enabled: true, relabelings, metricRelabelings: relabelings } })).not.toThrow();
  });

  it('render behind the chart’s NetworkPolicy, which admits the metrics namespace', () => {
    expect(kinds(render({ ...RULES, networkPolicy: { enabled: true } }))).toEqual(
      expect.arrayContaining(['PrometheusRule', 'NetworkPolicy']),
    );
  });

  it('are refused behind a NetworkPolicy that admits no scraper to the metrics port', () => {
    const httpOnly = chartWithNetworkPolicy(policy(HTTP_ONLY));
    const message = renderError({ ...RULES, networkPolicy: { enabled: true } }, { chartDir: httpOnly });

    expect(message).toContain('networkPolicy lets no pod reach the metrics port');
    expect(message).toContain(FOREVER);
    expect(() => render(RULES, { chartDir: httpOnly })).not.toThrow();
    // Without policyTypes a policy isolates ingress all the same.
    expect(
      renderError({ ...RULES, networkPolicy: { enabled: true } }, { chartDir: chartWithNetworkPolicy(policy(HTTP_ONLY, '[]')) }),
    ).toContain('networkPolicy lets no pod reach the metrics port');
  });

  it('read the policy as Kubernetes does: the port by number or range, no port, no peer admit scrapers; egress alone isolates nothing', () => {
    for (const text of [
      policy('    - ports: [{ port: 9464 }]\n      from: [{ namespaceSelector: {} }]\n'),
      policy('    - ports: [{ port: 9000, endPort: 9999 }]\n'),
      policy('    - ports: [{ protocol: TCP }]\n'),
      policy('    - from: [{ podSelector: {} }]\n'),
      policy('    - {}\n'),
      policy(HTTP_ONLY, '[Egress]'),
    ]) {
      expect(() => render({ ...RULES, networkPolicy: { enabled: true } }, { chartDir: chartWithNetworkPolicy(text) }), text).not.toThrow();
    }
  });
});
