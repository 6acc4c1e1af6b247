// Reads the `# --` comments of the chart's values.yaml (helm-docs' convention): the chart
// README's values table is generated from them, so the two cannot drift apart.
import { isMap, isScalar, parseDocument } from 'yaml';
import { markdownTable } from '../lib/table.mjs';

/** @typedef {import('yaml').YAMLMap<unknown, unknown>} ValuesMap */
/** @typedef {import('yaml').Pair<unknown, unknown>} ValuesPair */

const MARKER = /^ ?-- /;

/**
 * The `# --` text above a key; the yaml parser hangs a map's first comment on the map itself.
 * @param {ValuesPair} pair
 * @param {number} index
 * @param {ValuesMap} parent
 */
function descriptionOf(pair, index, parent) {
  const comment = (index === 0 ? parent.commentBefore : undefined) ?? (isScalar(pair.key) ? pair.key.commentBefore : undefined) ?? '';
  const lines = comment.split('\n');
  const start = lines.map((line) => MARKER.test(line)).lastIndexOf(true);
  if (start === -1) return undefined;
  return lines
    .slice(start)
    .map((line) => line.replace(MARKER, '').trim())
    .join(' ')
    .trim();
}

/**
 * Every key of values.yaml, depth first: its dotted path, its default (as JSON), its
 * description (undefined when it has no `# --` comment) and whether it is a leaf.
 * @param {string} valuesYaml
 * @returns {{ path: string, defaultJson: string, description: string | undefined, leaf: boolean }[]}
 */
export function valuesEntries(valuesYaml) {
  const document = parseDocument(valuesYaml);
  /** @type {ReturnType<typeof valuesEntries>} */
  const entries = [];
  /**
   * @param {ValuesMap} map
   * @param {string} prefix
   */
  const walk = (map, prefix) => {
    map.items.forEach((pair, index) => {
      const path = `${prefix}${isScalar(pair.key) ? pair.key.value : String(pair.key)}`;
      const nested = isMap(pair.value) && pair.value.items.length > 0 ? pair.value : null;
      entries.push({
        path,
        defaultJson: JSON.stringify(toJson(pair.value)),
        description: descriptionOf(pair, index, map),
        leaf: !nested,
      });
      if (nested) walk(nested, `${path}.`);
    });
  };
  if (!isMap(document.contents)) throw new Error('helm-values-docs: values.yaml is not a map of keys');
  walk(document.contents, '');
  return entries;
}

/**
 * A node's value as JSON would hold it (null for an empty value).
 * @param {unknown} node
 */
const toJson = (node) => (node && typeof node === 'object' && 'toJSON' in node && typeof node.toJSON === 'function' ? node.toJSON() : null);

/**
 * Leaves with no documented key on their path, and documented keys below a documented key.
 * @param {string} valuesYaml
 */
export function documentationGaps(valuesYaml) {
  const entries = valuesEntries(valuesYaml);
  const documented = entries.filter((entry) => entry.description).map((entry) => entry.path);
  const ancestorsOf = (/** @type {string} */ path) => documented.filter((other) => path.startsWith(`${other}.`));
  return {
    undocumented: entries
      .filter((entry) => entry.leaf && !entry.description && ancestorsOf(entry.path).length === 0)
      .map((entry) => entry.path),
    doublyDocumented: documented.filter((path) => ancestorsOf(path).length > 0),
  };
}

/**
 * The Markdown values table: one row per documented key.
 * @param {string} valuesYaml
 */
export function valuesTable(valuesYaml) {
  const rows = valuesEntries(valuesYaml).flatMap(({ path, defaultJson, description }) =>
    description ? [[`\`${path}\``, `\`${defaultJson}\``, description]] : [],
  );
  return markdownTable(['Key', 'Default', 'Description'], rows);
}

export const TABLE_START = '<!-- values table: generated from values.yaml by `npm run helm:values-table` -->';
export const TABLE_END = '<!-- end of values table -->';

/**
 * The README with its values table replaced by a fresh one.
 * @param {string} readme
 * @param {string} valuesYaml
 */
export function withValuesTable(readme, valuesYaml) {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start === -1 || end < start) throw new Error(`helm-values-docs: the README needs the markers ${TABLE_START} and ${TABLE_END}`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${valuesTable(valuesYaml)}\n${readme.slice(end)}`;
}
