import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { crdFiles } from '../../../tools/cluster/custom-resources.mjs';
import type { KubernetesObject } from './chart';

interface Crd {
  spec: { names: { kind: string }; group: string; versions: { name: string; schema: { openAPIV3Schema: object } }[] };
}

/**
 * A CRD's OpenAPI schema as the API server applies it to a create with strict field
 * validation: an object's fields are the ones it lists (unless it keeps unknown fields),
 * int-or-string takes either.
 */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!key.startsWith('x-kubernetes-')) copy[key] = strict(value);
  }
  const source = schema as Record<string, unknown>;
  if (source['x-kubernetes-int-or-string']) return { anyOf: [{ type: 'integer' }, { type: 'string' }] };
  if (source.properties && !source.additionalProperties && !source['x-kubernetes-preserve-unknown-fields'])
    copy.additionalProperties = false;
  return copy;
}

let validators: Map<string, ValidateFunction> | null = null;

/** Validators of the Argo Rollouts CRDs read from the Go module tools/argo-rollouts pins, by apiVersion and kind. */
function argoValidators(): Map<string, ValidateFunction> {
  if (validators) return validators;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  validators = new Map();
  for (const file of crdFiles('tools/argo-rollouts')) {
    const crd = parse(readFileSync(file, 'utf8')) as Crd;
    for (const version of crd.spec.versions) {
      const schema = strict(version.schema.openAPIV3Schema) as { properties: Record<string, unknown> };
      // apiVersion, kind and metadata are the API server's, checked by every other object's tests.
      const body = { ...schema, properties: { ...schema.properties, metadata: { type: 'object' } } };
      validators.set(`${crd.spec.group}/${version.name}/${crd.spec.names.kind}`, ajv.compile(body));
    }
  }
  return validators;
}

/** Schema violations of an argoproj.io object against its CRD, or null for other groups. */
export function argoRolloutsViolations(object: KubernetesObject): string[] | null {
  if (!object.apiVersion.startsWith('argoproj.io/')) return null;
  const where = `${object.kind}/${object.metadata.name}`;
  const validate = argoValidators().get(`${object.apiVersion}/${object.kind}`);
  if (!validate) return [`${where}: no CRD of ${object.apiVersion} ${object.kind} in ${path.join('tools', 'argo-rollouts')}'s module`];
  if (validate(object)) return [];
  return (validate.errors ?? []).map((error) => `${where}: ${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
}
