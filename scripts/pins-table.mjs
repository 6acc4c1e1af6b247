// Rewrites the "Versions, and why" table of docs/cluster.md from tools/pins.mjs.
// The unit tests fail while the doc is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../tools/lib/app-server.mjs';
import { HELP, parseCommand } from '../tools/lib/cli.mjs';
import { withPinsTable } from '../tools/pins-table/pins-table.mjs';

const USAGE = `Usage: npm run pins:table

Rewrites the "Versions, and why" table of docs/cluster.md from tools/pins.mjs.`;
parseCommand('pins-table', USAGE, () => parseArgs({ options: { help: HELP } }));

const docPath = path.join(ROOT, 'docs', 'cluster.md');
writeFileSync(docPath, withPinsTable(readFileSync(docPath, 'utf8')));
console.log(`pins-table: wrote ${path.relative(ROOT, docPath)}`);
