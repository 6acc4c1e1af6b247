import { describe, expect, it } from 'vitest';
import { EVERY_FEATURE_VALUES, find, kinds, render, renderError, type KubernetesObject } from '../support/chart';
import { schemaViolations } from '../support/kubernetes-schemas';
import { appEnvironmentOf, deploymentOf, testPodOf } from '../support/workload';

const PROMETHEUS = 'http://prometheus-operated.monitoring:9090';
const canary = (analysis: Record<string, unknown> = {}, canaryValues: Record<string, unknown> = {}) => ({
  rollout: { strategy: 'canary', canary: { ...canaryValues, analysis: { prometheusAddress: PROMETHEUS, ...analysis } } },
});

interface RolloutSpec {
  replicas?: number;
  workloadRef: Record<string, string>;
  selector: { matchLabels: Record<string, string> };
  strategy: { canary: { stableService: string; canaryService: string; maxUnavailable: number; steps: Record<string, unknown>[] } };
}
interface AnalysisMetric {
  name: string;
  interval: string;
  count: number;
  failureLimit: number;
  inconclusiveLimit: number;
  successCondition: string;
  failureCondition: string;
  provider: { prometheus: { address: string; query: string } };
}
const rolloutOf = (objects: KubernetesObject[]) => find(objects, 'Rollout').spec as RolloutSpec;
const metricsOf = (objects: KubernetesObject[]) => (find(objects, 'AnalysisTemplate').spec as { metrics: AnalysisMetric[] }).metrics;

describe('rollout.strategy', () => {
  it('is rollingUpdate by default: a Deployment with its replicas, no Rollout, no AnalysisTemplate, no Services per build', () => {
    const objects = render();
    expect(kinds(objects)).not.toContain('Rollout');
    expect(kinds(objects)).not.toContain('AnalysisTemplate');
    expect(deploymentOf(objects).spec?.replicas).toBe(2);
    expect(appEnvironmentOf(objects)).not.toHaveProperty('STABLE_SERVICE_URL');
  });

  it('canary: a Rollout of the Deployment’s pod template, which then runs no pod itself', () => {
    const objects = render(canary());
    const rollout = rolloutOf(objects);
    expect(rollout.workloadRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web-meridian', scaleDown: 'progressively' });
    expect(rollout.replicas).toBe(2);
    expect(rollout.selector.matchLabels).toEqual(deploymentOf(objects).spec?.selector.matchLabels);
    expect(deploymentOf(objects).spec).not.toHaveProperty('replicas');
    expect(rollout.strategy.canary).toMatchObject({
      stableService: 'web-meridian-stable',
      canaryService: 'web-meridian-canary',
      maxUnavailable: 0,
    });
  });

  it('canary: 20 % → analysis → 50 % → analysis by default, each analysis of the build the chart rolls out', () => {
    const objects = render(canary(), { args: ['--set-string', 'image.tag=2026.11.25-b'] });
    const analysis = { templates: [{ templateName: 'web-meridian' }], args: [{ name: 'canary-build', value: '2026.11.25-b' }] };
    expect(rolloutOf(objects).strategy.canary.steps).toEqual([{ setWeight: 20 }, { analysis }, { setWeight: 50 }, { analysis }]);
  });

  it('canary: steps as configured, with pauses', () => {
    const steps = [
      { weight: 10, pause: '2m' },
      { weight: 40, analysis: true },
      { weight: 100, pause: '30s', analysis: true },
    ];
    const rendered = rolloutOf(render(canary({}, { steps }))).strategy.canary.steps;
    expect(rendered.map((step) => Object.keys(step)[0])).toEqual([
      'setWeight',
      'pause',
      'setWeight',
      'analysis',
      'setWeight',
      'pause',
      'analysis',
    ]);
    expect(rendered[1]).toEqual({ pause: { duration: '2m' } });
  });

  it('canary: the stable and canary Services, and the pods told their addresses', () => {
    const objects = render(canary());
    for (const role of ['stable', 'canary']) {
      const service = find(objects, 'Service', `-${role}`);
      expect(service.spec).toMatchObject({ type: 'ClusterIP', ports: [{ name: 'http', port: 80, targetPort: 'http' }] });
    }
    expect(appEnvironmentOf(objects)).toMatchObject({
      STABLE_SERVICE_URL: 'http://web-meridian-stable:80',
      CANARY_SERVICE_URL: 'http://web-meridian-canary:80',
    });
  });

  it('canary with autoscaling: the autoscaler scales the Rollout, which then has no replicas field', () => {
    const objects = render({ ...canary(), autoscaling: { enabled: true } });
    expect(find(objects, 'HorizontalPodAutoscaler').spec).toMatchObject({
      scaleTargetRef: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'web-meridian' },
    });
    expect(rolloutOf(objects)).not.toHaveProperty('replicas');
  });

  it('canary with the NetworkPolicy: the pods may reach one another on the HTTP port', () => {
    const policy = find(render({ ...canary(), networkPolicy: { enabled: true } }), 'NetworkPolicy', '-rollout');
    expect(policy.spec).toMatchObject({
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ ports: [{ port: 'http', protocol: 'TCP' }] }],
      egress: [{ ports: [{ port: 3000, protocol: 'TCP' }] }],
    });
  });

  it('canary: every object valid against the Kubernetes schemas and Argo Rollouts’ own CRDs, with every feature on', () => {
    for (const objects of [render(canary()), render({ ...canary(), autoscaling: { enabled: true } }, { files: [EVERY_FEATURE_VALUES] })]) {
      expect(objects.flatMap(schemaViolations)).toEqual([]);
    }
  });

  it("the CRDs' check catches a field Argo Rollouts does not know", () => {
    const rollout = find(render(canary()), 'Rollout');
    const broken = { ...rollout, spec: { ...(rollout.spec as object), strategy: { canary: { stepz: [] } } } };
    expect(schemaViolations(broken as KubernetesObject)).toEqual([expect.stringContaining('must NOT have additional properties')]);
  });
});

describe('the canary analysis', () => {
  it('measures the four signals against the Prometheus of the values, scoped to the release', () => {
    const metrics = metricsOf(render(canary()));
    expect(metrics.map((metric) => metric.name)).toEqual([
      'server-error-ratio',
      'server-latency-p95',
      'client-failures-per-page-view',
      'client-lcp-p75',
    ]);
    for (const metric of metrics) {
      expect(metric).toMatchObject({
        interval: '1m',
        count: 3,
        failureLimit: 0,
        inconclusiveLimit: 1,
        provider: { prometheus: { address: PROMETHEUS } },
      });
      expect(metric.provider.prometheus.query).not.toContain('job="meridian"');
      expect(metric.provider.prometheus.query).toContain('job="web-meridian-metrics", namespace="site"');
      expect(metric.provider.prometheus.query).toContain('build_id="{{args.canary-build}}"');
    }
  });

  it('takes each threshold and minimum sample count from the values', () => {
    const metrics = metricsOf(
      render(
        canary({
          window: '90s',
          errorRatio: { maxIncrease: 0.02, minRequests: 500 },
          lcpP75: { maxIncreaseSeconds: 0.3, minSamples: 7, minPageViews: 11 },
        }),
      ),
    );
    const [errors, , , lcp] = metrics;
    expect(errors?.successCondition).toMatch(/result\[0\] <= 0\.02$/);
    expect(errors?.failureCondition).toMatch(/result\[0\] > 0\.02$/);
    expect(errors?.provider.prometheus.query).toMatch(/\[90s\]/);
    expect(errors?.provider.prometheus.query).toMatch(/>= 500\n$/);
    expect(lcp?.successCondition).toMatch(/<= 0\.3$/);
    expect(lcp?.provider.prometheus.query).toMatch(/>= 7\n/);
    expect(lcp?.provider.prometheus.query).toMatch(/meridian_page_loads_total[^\n]*>= 11\n$/);
  });

  it('derives the 5xx tolerance from the availability objective, 14.4 times its budget, unless it is set as a share', () => {
    const tolerance = (values: Record<string, unknown>, analysis: Record<string, unknown> = {}) => {
      const [errors] = metricsOf(render({ ...canary(analysis), ...values }));
      return /<= ([0-9.]+)$/.exec(errors!.successCondition)?.[1];
    };
    expect(tolerance({})).toBe('0.0144');
    expect(tolerance({ prometheusRule: { availabilityObjective: 0.99 } })).toBe('0.144');
    expect(tolerance({ prometheusRule: { availabilityObjective: 0.9995 } })).toBe('0.0072');
    expect(tolerance({}, { errorRatio: { maxBudgetBurn: 6 } })).toBe('0.006');
    expect(tolerance({}, { errorRatio: { maxIncrease: 0.02 } })).toBe('0.02');
  });

  it('makes a measurement without data meet neither condition (inconclusive), never a pass', () => {
    for (const metric of metricsOf(render(canary()))) {
      // Argo Rollouts counts a measurement meeting neither condition inconclusive (utils/evaluate).
      expect(metric.successCondition).toMatch(/^len\(result\) == 1 && !isNaN\(result\[0\]\) && /);
      expect(metric.failureCondition).toMatch(/^len\(result\) == 1 && /);
    }
  });
});

describe('refused at render', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['canary without a Prometheus address', { rollout: { strategy: 'canary' } }, 'needs rollout.canary.analysis.prometheusAddress'],
    [
      'weights going down',
      canary({}, { steps: [{ weight: 50 }, { weight: 20 }] }),
      'steps[1].weight=20 must be above the step before it (50)',
    ],
    ['a weight repeated', canary({}, { steps: [{ weight: 20 }, { weight: 20 }] }), 'steps[1].weight=20 must be above'],
    ['a weight past 100', canary({}, { steps: [{ weight: 120 }] }), "at '/rollout/canary/steps/0/weight': maximum: got 120"],
    ['a weight of 0', canary({}, { steps: [{ weight: 0 }] }), "at '/rollout/canary/steps/0/weight': minimum: got 0"],
    ['no steps', canary({}, { steps: [] }), "at '/rollout/canary/steps'"],
    ['an unknown strategy', { rollout: { strategy: 'blueGreen' } }, "at '/rollout/strategy'"],
    [
      'a negative threshold',
      canary({ errorRatio: { maxIncrease: -0.1, minRequests: 1 } }),
      "at '/rollout/canary/analysis/errorRatio/maxIncrease'",
    ],
    [
      'a minimum of 0 samples',
      canary({ lcpP75: { maxIncreaseSeconds: 1, minSamples: 0 } }),
      "at '/rollout/canary/analysis/lcpP75/minSamples'",
    ],
    ['an interval that is no duration', canary({ interval: 'often' }), "at '/rollout/canary/analysis/interval'"],
    ['inconclusiveLimit not below count', canary({ count: 2, inconclusiveLimit: 2 }), 'inconclusiveLimit=2 must be below count=2'],
    ['an address that is no URL', canary({ prometheusAddress: 'prometheus:9090' }), "at '/rollout/canary/analysis/prometheusAddress'"],
  ])('%s', (_case, values, message) => {
    expect(renderError(values)).toContain(message);
  });
});

describe('the helm test pod under canary', () => {
  it('is told the canary Service, where the new build must answer', () => {
    expect(testPodOf(render(canary())).spec?.containers[0]?.env).toContainEqual({
      name: 'CANARY_SITE_URL',
      value: 'http://web-meridian-canary:80',
    });
  });
});
