// The "Versions, and why" table of docs/cluster.md, generated from tools/pins.mjs
// (`npm run pins:table`); a unit test fails while the doc is stale.
import { markdownTable } from '../lib/table.mjs';
import { PINS } from '../pins.mjs';

export const TABLE_START = '<!-- pins-table:start -->';
export const TABLE_END = '<!-- pins-table:end -->';

/** @param {import('../pins.mjs').Pin['from']} from */
function source(from) {
  if ('go' in from) {
    const version = from.go.moduleVersion ?? '';
    return `\`${from.go.dir}/go.mod\`: \`${from.go.module}\`${version ? ` ${version}` : ''}${from.go.build === false ? ' (read, not built)' : ''}`;
  }
  if ('npm' in from) {
    const how = from.npm.devDependency ? 'a devDependency' : `\`npm pack\`, sha512 checked`;
    return `npm \`${from.npm.name}\`${from.npm.version ? ` ${from.npm.version}` : ''} (${how})`;
  }
  return `Debian 12's \`${from.debian.name}\` (apt)`;
}

/** The Markdown table: one row per pin. */
export function pinsTable() {
  const rows = Object.values(PINS).map((pin) => [
    pin.name,
    pin.version,
    source(pin.from),
    pin.cache ? `\`~/.cache/meridian/${pin.cache}/\`` : '—',
    pin.why,
  ]);
  return markdownTable(['Tool', 'Version', 'Where it comes from', 'Cache', 'Why this version'], rows);
}

/** `doc` with the text between the markers replaced by the table. @param {string} doc */
export function withPinsTable(doc) {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start === -1 || end < start) throw new Error(`pins-table: the doc needs the markers ${TABLE_START} and ${TABLE_END}`);
  return `${doc.slice(0, start + TABLE_START.length)}\n${pinsTable()}\n${doc.slice(end)}`;
}
