// `npm run up`: installs the dependencies from the lock file, builds the app and serves it at
// http://localhost:3000, all on the Node that production runs (pinned in tools/pins.mjs),
// fetched first when the machine has another.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { HELP, parseCommand } from '../tools/lib/cli.mjs';
import { onPinnedNode } from '../tools/node-runtime.mjs';

const USAGE = `Usage: npm run up

Installs the dependencies from the lock file (npm ci), builds the app (npm run build) and serves
it at http://localhost:3000 (npm start), all on the Node pinned in tools/pins.mjs.`;
parseCommand('up', USAGE, () => parseArgs({ options: { help: HELP } }));
onPinnedNode();
for (const step of [['ci', '--no-audit', '--no-fund'], ['run', 'build'], ['start']]) {
  const { status } = spawnSync('npm', step, { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
