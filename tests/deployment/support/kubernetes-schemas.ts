import { HTTPRoute } from '@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1';
import { ServiceMonitor, PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { AlertmanagerConfig } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1alpha1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Pod, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import { argoRolloutsViolations } from './argo-rollouts-schemas';
import type { KubernetesObject } from './chart';

/**
 * Validators compiled from the Kubernetes OpenAPI schemas (kubernetes-models) and from the
 * Prometheus Operator's and Gateway API's CRDs, by apiVersion and kind (Argo Rollouts' from
 * its CRDs in the module tools/argo-rollouts pins: argo-rollouts-schemas.ts). A kind the chart starts rendering
 * without an entry here fails validation, so nothing goes unchecked.
 */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Pod': Pod,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
  'monitoring.coreos.com/v1alpha1/AlertmanagerConfig': AlertmanagerConfig,
  'gateway.networking.k8s.io/v1/HTTPRoute': HTTPRoute,
};

/** Schema violations of one object, as "<Kind>/<name>: <message>"; empty when it is valid. */
export function schemaViolations(object: KubernetesObject): string[] {
  const argo = argoRolloutsViolations(object);
  if (argo) return argo;
  const where = `${object.kind}/${object.metadata.name}`;
  const Model = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!Model) return [`${where}: no schema known for ${object.apiVersion} ${object.kind}`];
  try {
    new Model(object as never).validate();
    return [];
  } catch (error) {
    return [`${where}: ${(error as Error).message}`];
  }
}
