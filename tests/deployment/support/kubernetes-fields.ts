import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import type { KubernetesObject } from './chart';

/**
 * The OpenAPI schemas of Kubernetes allow unknown fields, so a misspelt field
 * (`readinesProbe`) passes schemaViolations and is silently dropped by the API server.
 * kubernetes-models generates a TypeScript interface per schema from the same OpenAPI
 * documents: typing each rendered object as its interface lets the compiler's excess
 * property check name every field the schema does not know (what kubeconform -strict does).
 */
const TYPES: Record<string, [module: string, name: string]> = {
  'v1/ConfigMap': ['kubernetes-models/v1/ConfigMap', 'IConfigMap'],
  'v1/Pod': ['kubernetes-models/v1/Pod', 'IPod'],
  'v1/Secret': ['kubernetes-models/v1/Secret', 'ISecret'],
  'v1/Service': ['kubernetes-models/v1/Service', 'IService'],
  'v1/ServiceAccount': ['kubernetes-models/v1/ServiceAccount', 'IServiceAccount'],
  'apps/v1/Deployment': ['kubernetes-models/apps/v1/Deployment', 'IDeployment'],
  'autoscaling/v2/HorizontalPodAutoscaler': ['kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler', 'IHorizontalPodAutoscaler'],
  'networking.k8s.io/v1/Ingress': ['kubernetes-models/networking.k8s.io/v1/Ingress', 'IIngress'],
  'networking.k8s.io/v1/NetworkPolicy': ['kubernetes-models/networking.k8s.io/v1/NetworkPolicy', 'INetworkPolicy'],
  'policy/v1/PodDisruptionBudget': ['kubernetes-models/policy/v1/PodDisruptionBudget', 'IPodDisruptionBudget'],
  'monitoring.coreos.com/v1/ServiceMonitor': [
    '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor',
    'IServiceMonitor',
  ],
  'monitoring.coreos.com/v1/PrometheusRule': [
    '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule',
    'IPrometheusRule',
  ],
  'monitoring.coreos.com/v1alpha1/AlertmanagerConfig': [
    '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1alpha1/AlertmanagerConfig',
    'IAlertmanagerConfig',
  ],
  'gateway.networking.k8s.io/v1/HTTPRoute': ['@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1/HTTPRoute', 'IHTTPRoute'],
};

// Inside the repository, so the compiler resolves kubernetes-models from node_modules.
const SCRATCH = path.join(ROOT, 'node_modules', '.cache', 'meridian-helm', 'field-check');

function compilerMessages(file: string): { line: number; message: string }[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  });
  const source = program.getSourceFile(file)!;
  return ts.getPreEmitDiagnostics(program, source).map((diagnostic) => ({
    line: diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line,
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '),
  }));
}

/**
 * Fields the Kubernetes schemas do not define, as "<Kind>/<name>: <compiler message>".
 * The compiler stops at the first excess field of each object, so a bad object is named
 * with one of its unknown fields, not all of them.
 */
export function unknownFields(objects: KubernetesObject[]): string[] {
  const known = objects.filter((object) => TYPES[`${object.apiVersion}/${object.kind}`]);
  const untyped = objects
    .filter((object) => !known.includes(object))
    .map((object) => `${object.kind}/${object.metadata.name}: no type known for ${object.apiVersion} ${object.kind}`);
  // Two lines per object (its import, its typed constant), so a line number names the object.
  const lines = known.flatMap((object, index) => {
    const [module, name] = TYPES[`${object.apiVersion}/${object.kind}`]!;
    return [
      `import type { ${name} as T${index} } from '${module}';`,
      `export const object${index}: T${index} = ${JSON.stringify(object)};`,
    ];
  });
  mkdirSync(SCRATCH, { recursive: true });
  const file = path.join(SCRATCH, `manifests-${process.pid}-${Date.now()}.ts`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  try {
    return [
      ...untyped,
      ...compilerMessages(file).map(({ line, message }) => {
        const owner = known[Math.floor(line / 2)];
        return `${owner ? `${owner.kind}/${owner.metadata.name}` : 'manifests'}: ${message}`;
      }),
    ];
  } finally {
    rmSync(file, { force: true });
  }
}
