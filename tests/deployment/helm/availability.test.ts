import { describe, expect, it } from 'vitest';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { EVERY_FEATURE_VALUES, find, render, renderError, type KubernetesObject } from '../support/chart';
import { deploymentOf, podSpecOf } from '../support/workload';

const pdbOf = (objects: KubernetesObject[]) => find(objects, 'PodDisruptionBudget') as unknown as IPodDisruptionBudget;
const hpaOf = (objects: KubernetesObject[]) => find(objects, 'HorizontalPodAutoscaler') as unknown as IHorizontalPodAutoscaler;
const WEB_PODS = { 'app.kubernetes.io/name': 'meridian', 'app.kubernetes.io/instance': 'web', 'app.kubernetes.io/component': 'web' };

describe('replicas, autoscaling and disruption budget', () => {
  it('runs replicaCount pods with a PodDisruptionBudget that lets one go at a time, unhealthy ones always', () => {
    const objects = render();

    expect(deploymentOf(objects).spec?.replicas).toBe(2);
    expect(pdbOf(objects).spec).toEqual({
      selector: { matchLabels: WEB_PODS },
      maxUnavailable: 1,
      unhealthyPodEvictionPolicy: 'AlwaysAllow',
    });
  });

  it('installs one replica with the default budget, which still lets a node drain evict it', () => {
    const objects = render({ replicaCount: 1 });

    expect(deploymentOf(objects).spec?.replicas).toBe(1);
    expect(pdbOf(objects).spec).toMatchObject({ maxUnavailable: 1, unhealthyPodEvictionPolicy: 'AlwaysAllow' });
    expect(pdbOf(objects).spec?.minAvailable).toBeUndefined();
  });

  it('leaves replicas to the autoscaler when it is on, with a budget below its minimum', () => {
    const objects = render({}, { files: [EVERY_FEATURE_VALUES] });
    const hpa = hpaOf(objects);

    expect(deploymentOf(objects).spec?.replicas).toBeUndefined();
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec?.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: deploymentOf(objects).metadata?.name });
    expect(hpa.spec).toMatchObject({ minReplicas: 3, maxReplicas: 12, behavior: { scaleDown: { stabilizationWindowSeconds: 300 } } });
    expect(hpa.spec?.metrics?.map((metric) => metric.type)).toEqual(['Resource', 'Resource', 'Pods']);
    expect(hpa.spec?.metrics?.slice(0, 2).map((metric) => [metric.resource?.name, metric.resource?.target.averageUtilization])).toEqual([
      ['cpu', 60],
      ['memory', 80],
    ]);
    expect(pdbOf(objects).spec?.minAvailable).toBeLessThan(hpa.spec?.minReplicas ?? 0);
  });

  it('scales on requests per second per pod alone, read as a pods metric under the name the adapter serves', () => {
    const hpa = hpaOf(
      render({ autoscaling: { enabled: true, targetCPUUtilizationPercentage: null, requestsPerSecond: { targetPerPod: '37500m' } } }),
    );

    expect(hpa.spec?.metrics).toEqual([
      {
        type: 'Pods',
        pods: { metric: { name: 'meridian_http_requests_per_second' }, target: { type: 'AverageValue', averageValue: '37500m' } },
      },
    ]);
    const renamed = hpaOf(render({ autoscaling: { enabled: true, requestsPerSecond: { targetPerPod: 50, metricName: 'web_rps' } } }));
    expect(renamed.spec?.metrics?.at(-1)?.pods).toEqual({
      metric: { name: 'web_rps' },
      target: { type: 'AverageValue', averageValue: '50' },
    });
  });

  it.each([
    ['a target that is no quantity', { targetPerPod: 'fast' }],
    ['a negative target', { targetPerPod: -5 }],
    ['a target of nothing', { targetPerPod: 0 }],
    ['a metric name with a selector in it', { targetPerPod: 50, metricName: 'rps{pod="x"}' }],
    ['a metric name of a template', { targetPerPod: 50, metricName: '{{ .Release.Name }}' }],
    ['no metric name', { targetPerPod: 50, metricName: null }],
  ])('refuses %s for requests per second', (_, requestsPerSecond) => {
    expect(renderError({ autoscaling: { enabled: true, requestsPerSecond } })).toContain('requestsPerSecond');
  });

  it('refuses an autoscaler with no metric at all, which would never scale', () => {
    expect(renderError({ autoscaling: { enabled: true, targetCPUUtilizationPercentage: null } })).toContain(
      'autoscaling needs targetCPUUtilizationPercentage, targetMemoryUtilizationPercentage or requestsPerSecond.targetPerPod',
    );
  });

  it('refuses a minAvailable that would block every eviction: at or above replicaCount', () => {
    expect(renderError({ replicaCount: 1, podDisruptionBudget: { minAvailable: 1 } })).toContain(
      'podDisruptionBudget.minAvailable=1 must be below the fewest pods running (replicaCount=1)',
    );
  });

  it('refuses a minAvailable at or above the autoscaler minimum, whatever replicaCount says', () => {
    const message = renderError({
      replicaCount: 5,
      autoscaling: { enabled: true, minReplicas: 2 },
      podDisruptionBudget: { minAvailable: 2 },
    });

    expect(message).toContain('podDisruptionBudget.minAvailable=2 must be below the fewest pods running (autoscaling.minReplicas=2)');
  });

  it('counts a minAvailable percentage as Kubernetes does, rounding up', () => {
    expect(renderError({ podDisruptionBudget: { minAvailable: '60%' } })).toContain(
      'podDisruptionBudget.minAvailable=60% must be below the fewest pods running (replicaCount=2)',
    );
    expect(pdbOf(render({ podDisruptionBudget: { minAvailable: '50%' } })).spec?.minAvailable).toBe('50%');
  });

  it('uses minAvailable instead of maxUnavailable when it is set, with no null needed beside it', () => {
    const objects = render({ replicaCount: 3, podDisruptionBudget: { minAvailable: 2 } });

    expect(pdbOf(objects).spec).toEqual({
      selector: { matchLabels: WEB_PODS },
      minAvailable: 2,
      unhealthyPodEvictionPolicy: 'AlwaysAllow',
    });
  });

  it('refuses a budget with neither minAvailable nor maxUnavailable', () => {
    expect(renderError({ podDisruptionBudget: { maxUnavailable: null } })).toContain(
      'set maxUnavailable or minAvailable, or enabled: false',
    );
  });

  it('refuses an autoscaler whose maximum is below its minimum', () => {
    expect(renderError({ autoscaling: { enabled: true, minReplicas: 4, maxReplicas: 3 } })).toContain(
      'autoscaling.maxReplicas=3 must be at least autoscaling.minReplicas=4',
    );
  });

  it('renders no PodDisruptionBudget or autoscaler when they are off', () => {
    const objects = render({ podDisruptionBudget: { enabled: false }, replicaCount: 1 });

    expect(objects.map((object) => object.kind)).not.toContain('PodDisruptionBudget');
    expect(objects.map((object) => object.kind)).not.toContain('HorizontalPodAutoscaler');
  });
});

describe('scheduling', () => {
  it('spreads the pods across nodes and zones, each rollout on its own', () => {
    const constraints = podSpecOf(render()).topologySpreadConstraints;

    expect(constraints?.map((constraint) => constraint.topologyKey)).toEqual(['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);
    for (const constraint of constraints ?? []) {
      expect(constraint).toMatchObject({
        maxSkew: 1,
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels: WEB_PODS },
        matchLabelKeys: ['pod-template-hash'],
      });
    }
  });

  it('makes every constraint a hard one with topologySpread.whenUnsatisfiable, and a constraint that says otherwise keeps its own', () => {
    const strict = podSpecOf(render({ topologySpread: { whenUnsatisfiable: 'DoNotSchedule' } })).topologySpreadConstraints;
    expect(strict?.map((constraint) => constraint.whenUnsatisfiable)).toEqual(['DoNotSchedule', 'DoNotSchedule']);
    const mixed = podSpecOf(
      render({
        topologySpread: {
          whenUnsatisfiable: 'DoNotSchedule',
          constraints: [
            { topologyKey: 'kubernetes.io/hostname', maxSkew: 1, whenUnsatisfiable: 'ScheduleAnyway' },
            { topologyKey: 'topology.kubernetes.io/zone', maxSkew: 1 },
          ],
        },
      }),
    ).topologySpreadConstraints;
    expect(mixed?.map((constraint) => constraint.whenUnsatisfiable)).toEqual(['ScheduleAnyway', 'DoNotSchedule']);
  });

  it.each([['Never'], [''], ['donotschedule'], [null]])('refuses topologySpread.whenUnsatisfiable %j', (value) => {
    expect(renderError({ topologySpread: { whenUnsatisfiable: value } })).toContain('whenUnsatisfiable');
  });

  it('drops the spread constraints when told to', () => {
    expect(podSpecOf(render({ topologySpread: { constraints: [] } })).topologySpreadConstraints).toBeUndefined();
  });

  it('replaces the pods of a lost node after nodeLossTolerationSeconds, not Kubernetes’ 300 s', () => {
    const lost = (seconds: number) =>
      ['node.kubernetes.io/unreachable', 'node.kubernetes.io/not-ready'].map((key) => ({
        key,
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: seconds,
      }));
    expect(podSpecOf(render()).tolerations).toEqual(lost(30));
    expect(podSpecOf(render({ nodeLossTolerationSeconds: 90 })).tolerations).toEqual(lost(90));
    expect(podSpecOf(render({ nodeLossTolerationSeconds: null })).tolerations).toBeUndefined();
  });

  it("keeps a toleration of `tolerations` for a lost node's taint, or for every taint, over nodeLossTolerationSeconds'", () => {
    const own = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 };
    expect(podSpecOf(render({ tolerations: [own] })).tolerations).toEqual([
      own,
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 },
    ]);
    expect(podSpecOf(render({ tolerations: [{ operator: 'Exists' }] })).tolerations).toEqual([{ operator: 'Exists' }]);
  });

  it.each([[-1], [3601], ['30'], [1.5]])('refuses nodeLossTolerationSeconds %j', (value) => {
    expect(renderError({ nodeLossTolerationSeconds: value })).toContain('nodeLossTolerationSeconds');
  });

  it('passes affinity, tolerations, nodeSelector and priority class through', () => {
    const podSpec = podSpecOf(render({}, { files: [EVERY_FEATURE_VALUES] }));

    expect(podSpec.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(podSpec.tolerations?.[0]).toEqual({ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' });
    expect(podSpec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.[0]?.weight).toBe(50);
    expect(podSpec.priorityClassName).toBe('web-critical');
  });
});
