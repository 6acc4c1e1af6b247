// The stand-in origin the prerendered pages link to (src/shared/site-origin.mjs), which the
// server swaps for SITE_URL's at start by plain replacement. That is sound in a JSON row of a
// router payload, not in a text row, whose length prefix would then lie.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BUILT_SITE_ORIGIN } from '../shared/site-origin.mjs';
import { payloadRows } from './inline-page-data.mjs';

/**
 * The ids of the text rows (`id:T<length>,…`) of a router payload that hold the stand-in origin.
 * @param {string} payload
 * @returns {string[]}
 */
export function textRowsWithBuiltOrigin(payload) {
  return payloadRows(payload)
    .filter((row) => row.text?.includes(BUILT_SITE_ORIGIN))
    .map((row) => row.id);
}

/**
 * Refuses a build whose router payloads (`.rsc`, whole pages and segments) hold the stand-in
 * origin in a text row: the server could not swap it without breaking the row.
 * @param {string} appDir the build's `.next/server/app`
 */
export function checkBuiltSiteOrigin(appDir) {
  for (const entry of readdirSync(appDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.rsc')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const rows = textRowsWithBuiltOrigin(readFileSync(file, 'utf8'));
    if (rows.length > 0) {
      throw new Error(
        `build-server: ${path.relative(appDir, file)} holds the site's stand-in origin (${BUILT_SITE_ORIGIN}) in text row ${rows.join(', ')}, ` +
          'which the server cannot swap for SITE_URL without breaking its length; pass the origin as a prop of its own, not inside a long text',
      );
    }
  }
}
