import path from 'node:path';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { startDaemon } from '../../../tools/lib/daemon.mjs';
import { answers200 } from '../../../tools/lib/wait.mjs';
import { pinnedNode } from '../../../tools/node-runtime.mjs';
import { freePort } from './server-process';

export interface RunningNext {
  url: string;
  stop(): Promise<number | null>;
}

/** Next's own standalone server.js on the same build, for comparing its answers with ours. */
export async function startNextServer(): Promise<RunningNext> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  // Next's server.js must believe it is "localhost", or it reads the locale rewrites as external.
  const next = await startDaemon({
    name: "Next's server.js",
    command: pinnedNode(),
    args: [path.join(ROOT, '.next', 'standalone', 'server.js')],
    env: { PATH: process.env.PATH, NODE_ENV: 'production', PORT: String(port), HOSTNAME: 'localhost' },
    ready: () => answers200(`${url}/robots.txt`),
  });
  return { url, stop: () => next.stop() };
}
