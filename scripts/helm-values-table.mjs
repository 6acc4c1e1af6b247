// `npm run helm:values-table`: rewrites the values table of helm/meridian/README.md from the
// `# --` comments of helm/meridian/values.yaml. The chart tests fail while the README is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../tools/lib/app-server.mjs';
import { HELP, parseCommand } from '../tools/lib/cli.mjs';
import { withValuesTable } from '../tools/helm-values-table/helm-values-docs.mjs';

const USAGE = `Usage: npm run helm:values-table

Rewrites the values table of helm/meridian/README.md from the \`# --\` comments of values.yaml.`;
parseCommand('helm-values-table', USAGE, () => parseArgs({ options: { help: HELP } }));

const chart = path.join(ROOT, 'helm', 'meridian');
const readmePath = path.join(chart, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
writeFileSync(readmePath, withValuesTable(readme, readFileSync(path.join(chart, 'values.yaml'), 'utf8')));
console.log(`helm-values-table: wrote ${path.relative(ROOT, readmePath)}`);
