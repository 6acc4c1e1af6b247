import { spawn } from 'node:child_process';
import path from 'node:path';
import { pinnedNode } from '../../../tools/node-runtime.mjs';
import { ROOT, waitForHttp } from '../../../tools/lib/app-server.mjs';
import { freePort } from './server-process';

export interface RunningNext {
  url: string;
  stop(): void;
}

/** Next's own standalone server.js on the same build, for comparing its answers with ours. */
export async function startNextServer(): Promise<RunningNext> {
  const port = await freePort();
  // Next's server.js must believe it is "localhost", or it reads the locale rewrites as external.
  const child = spawn(pinnedNode(), [path.join(ROOT, '.next', 'standalone', 'server.js')], {
    env: { PATH: process.env.PATH, NODE_ENV: 'production', PORT: String(port), HOSTNAME: 'localhost' },
    stdio: 'ignore',
  });
  const url = `http://localhost:${port}`;
  await waitForHttp(`${url}/robots.txt`);
  return { url, stop: () => child.kill() };
}
