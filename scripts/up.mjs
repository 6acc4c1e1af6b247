// `npm run up`: installs the dependencies from the lock file, builds the app and serves it at
// http://localhost:3000, all on the Node that production runs (pinned in tools/pins.mjs),
// fetched first when the machine has another.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { onPinnedNode } from '../tools/node-runtime.mjs';

const { values } = parseArgs({ options: { help: { type: 'boolean', short: 'h' } } });
if (values.help) {
  console.log('usage: npm run up\n\nnpm ci, npm run build and npm start, on the pinned Node (tools/pins.mjs).');
  process.exit(0);
}
onPinnedNode();
for (const step of [['ci', '--no-audit', '--no-fund'], ['run', 'build'], ['start']]) {
  const { status } = spawnSync('npm', step, { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
