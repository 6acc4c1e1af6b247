import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { helmBinary } from '../../../tools/kubernetes-clients.mjs';
import { runSync } from '../../../tools/lib/command.mjs';

export const CHART_DIR = path.join(ROOT, 'helm', 'meridian');
export const EVERY_FEATURE_VALUES = path.join(ROOT, 'tests', 'fixtures', 'helm', 'every-feature.yaml');
export const RELEASE = 'web';

/** A rendered Kubernetes object, as helm template prints it. */
export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export interface HelmResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function helm(args: string[]): HelmResult {
  const result = runSync(helmBinary(), args, { cwd: ROOT, check: false });
  return { status: result.exitCode ?? null, stdout: result.stdout, stderr: result.stderr };
}

const valuesDir = mkdtempSync(path.join(tmpdir(), 'meridian-helm-values-'));
let valuesFiles = 0;

/**
 * Values as a file rather than --set, so numbers stay numbers and strings stay strings,
 * as they would in an operator's values file. Written as YAML 1.1, which Helm reads: a
 * string such as "yes" or "0123" is quoted, where YAML 1.2 would leave it bare for Helm to
 * read as a boolean or a number.
 */
function valuesFile(values: Record<string, unknown>): string {
  const file = path.join(valuesDir, `values-${(valuesFiles += 1)}.yaml`);
  writeFileSync(file, stringify(values, { version: '1.1' }));
  return file;
}

export interface RenderOptions {
  /** Values files applied first, in order (e.g. EVERY_FEATURE_VALUES). */
  files?: string[];
  /** Extra helm arguments, such as ['--set', 'image.tag=x']. */
  args?: string[];
  /** Release name (default RELEASE) and namespace (default `site`), to render releases side by side. */
  release?: string;
  namespace?: string;
  /** Another copy of the chart (default CHART_DIR). */
  chartDir?: string;
}

function templateArgs(values: Record<string, unknown>, options: RenderOptions): string[] {
  const files = [...(options.files ?? []), valuesFile(values)].flatMap((file) => ['--values', file]);
  const release = options.release ?? RELEASE;
  return [
    'template',
    release,
    options.chartDir ?? CHART_DIR,
    '--namespace',
    options.namespace ?? 'site',
    ...files,
    ...(options.args ?? []),
  ];
}

/** `helm template` output, the manifests as text; throws with helm's message when rendering fails. */
export function renderText(values: Record<string, unknown> = {}, options: RenderOptions = {}): string {
  const result = helm(templateArgs(values, options));
  if (result.status !== 0) throw new Error(`helm template failed: ${result.stderr}`);
  return result.stdout;
}

/**
 * `helm template` output as objects; throws with helm's message when rendering fails, and when
 * a manifest is not valid YAML to a strict parser (a key twice in one map, above all).
 */
export function render(values: Record<string, unknown> = {}, options: RenderOptions = {}): KubernetesObject[] {
  const documents = parseAllDocuments(renderText(values, options));
  const errors = documents.flatMap((document) => document.errors.map((error) => error.message));
  if (errors.length) throw new Error(`helm template rendered invalid YAML:\n${errors.join('\n')}`);
  return documents
    .map((document) => document.toJS() as KubernetesObject | null)
    .filter((object): object is KubernetesObject => object !== null);
}

/** helm's error output for values that must not render; throws if they do render. */
export function renderError(values: Record<string, unknown>, options: RenderOptions = {}): string {
  const result = helm(templateArgs(values, options));
  if (result.status === 0) throw new Error(`helm template rendered values it should refuse: ${JSON.stringify(values)}`);
  return result.stderr;
}

/** The one object of a kind (and, among several, the one whose name ends with nameSuffix). */
export function find(objects: KubernetesObject[], kind: string, nameSuffix = ''): KubernetesObject {
  const matches = objects.filter((object) => object.kind === kind && object.metadata.name.endsWith(nameSuffix));
  if (matches.length !== 1) {
    throw new Error(
      `expected one ${kind} named *${nameSuffix}, found ${matches.map((object) => object.metadata.name).join(', ') || 'none'}`,
    );
  }
  return matches[0]!;
}

export const kinds = (objects: KubernetesObject[]): string[] => objects.map((object) => object.kind).sort();
