import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { applyBuildConfig } from './next-adapter';

export type NextHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface PreparedNext {
  /** Next's request handler (run in the renderer's process only: src/server/rendering/renderer-main.ts). */
  handle: NextHandler;
}

/** Resolves modules as the standalone build in `dir` does: from its own node_modules, as its server.js does. */
export function requireFromStandalone(dir: string): NodeJS.Require {
  return createRequire(path.join(dir, 'server.js'));
}

/** Our cache handler for Next (page-cache-handler.ts), compiled beside the server by src/build/build-server.mjs. */
export const PAGE_CACHE_HANDLER = 'meridian-page-cache.cjs';

/**
 * Next prepared for the standalone build in `dir`, configured by what
 * `next build` wrote (`.next/required-server-files.json`): no next.config.js and
 * no dev dependency is read at run time. Its cache handler is ours, so the pages
 * it sends link to SITE_URL's origin.
 */
export async function loadNext(options: { dir: string; port: number }): Promise<PreparedNext> {
  const manifest = JSON.parse(readFileSync(path.join(options.dir, '.next', 'required-server-files.json'), 'utf8')) as {
    config: Record<string, unknown>;
  };
  const requireFromBuild = requireFromStandalone(options.dir);
  const cacheHandler = path.join(options.dir, PAGE_CACHE_HANDLER);
  // Loaded once here, so a Next that moved the reader it extends fails the start, not every page.
  requireFromBuild(cacheHandler);
  applyBuildConfig(requireFromBuild, { ...manifest.config, cacheHandler });
  const createNext = requireFromBuild('next') as (options: Record<string, unknown>) => {
    prepare(): Promise<void>;
    getRequestHandler(): NextHandler;
  };
  // Next compares rewrite targets with its own origin, for which it normalises any
  // loopback address to "localhost": giving it the bound address (say 127.0.0.1)
  // would make every locale rewrite look external.
  const app = createNext({ dir: options.dir, dev: false, hostname: 'localhost', port: options.port, quiet: true });
  await app.prepare();
  return { handle: app.getRequestHandler() };
}
