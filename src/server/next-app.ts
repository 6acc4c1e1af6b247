import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { applyBuildConfig, routerStateCheck } from './next-adapter';

export type NextHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * Next's request handler for the standalone build in `dir`, configured by what
 * `next build` wrote (`.next/required-server-files.json`): no next.config.js and
 * no dev dependency is read at run time.
 */
export async function loadNextHandler(options: { dir: string; port: number }): Promise<NextHandler> {
  const manifest = JSON.parse(readFileSync(path.join(options.dir, '.next', 'required-server-files.json'), 'utf8')) as {
    config: unknown;
  };
  // Next is resolved from the standalone folder's own node_modules, as its server.js does.
  const requireFromBuild = createRequire(path.join(options.dir, 'server.js'));
  applyBuildConfig(requireFromBuild, manifest.config);
  const createNext = requireFromBuild('next') as (options: Record<string, unknown>) => {
    prepare(): Promise<void>;
    getRequestHandler(): NextHandler;
  };
  // Next compares rewrite targets with its own origin, for which it normalises any
  // loopback address to "localhost": giving it the bound address (say 127.0.0.1)
  // would make every locale rewrite look external.
  const app = createNext({ dir: options.dir, dev: false, hostname: 'localhost', port: options.port, quiet: true });
  await app.prepare();
  const handle = app.getRequestHandler();
  const routerStateIsValid = routerStateCheck(requireFromBuild);
  return (req, res) => {
    if (routerStateIsValid(req.headers['next-router-state-tree'])) return handle(req, res);
    res.statusCode = 400;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.end(req.method === 'HEAD' ? undefined : 'Bad Request: unreadable Next-Router-State-Tree\n');
    return Promise.resolve();
  };
}
