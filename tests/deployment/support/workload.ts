import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPod } from 'kubernetes-models/v1/Pod';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { find, type KubernetesObject } from './chart';

export function deploymentOf(objects: KubernetesObject[]): IDeployment {
  return find(objects, 'Deployment') as unknown as IDeployment;
}

export function podSpecOf(objects: KubernetesObject[]): IPodSpec {
  const spec = deploymentOf(objects).spec?.template.spec;
  if (!spec) throw new Error('the Deployment has no pod spec');
  return spec;
}

export function webContainerOf(objects: KubernetesObject[]): IContainer {
  const container = podSpecOf(objects).containers.find((candidate) => candidate.name === 'meridian');
  if (!container) throw new Error('the Deployment has no container named meridian');
  return container;
}

export function testPodOf(objects: KubernetesObject[]): IPod {
  return find(objects, 'Pod', '-test-site') as unknown as IPod;
}

/** The ConfigMap the web container takes its environment from. */
export function appEnvironmentOf(objects: KubernetesObject[]): Record<string, string> {
  const name = webContainerOf(objects).envFrom?.[0]?.configMapRef?.name;
  const configMap = objects.find((object) => object.kind === 'ConfigMap' && object.metadata.name === name);
  if (!configMap) throw new Error(`no ConfigMap ${name} for the container's envFrom`);
  return configMap.data as Record<string, string>;
}
