// Starts tools/bench/static-server.mjs, a process of its own like our entry, for the floor
// (tools/bench/floor.mjs) and the static twin (tools/bench/static-twin.mjs).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { ROOT, waitForHttp } from '../lib/app-server.mjs';

/**
 * Pages by URL path (each an HTML file), and folders whose files are served under a prefix.
 * @typedef {{ pages: Record<string, string>, folders: { prefix: string, dir: string, cacheControl: string }[] }} StaticSite
 */

/** The cache policy of files whose names change with their content. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves `site` on `port` from memory with brotli; resolves once its first page answers.
 * Returns the site's base URL (no trailing slash) and a stop().
 * @param {{ name: string, site: StaticSite, port: number }} options
 */
export async function startStaticSite({ name, site, port }) {
  const child = spawn(process.execPath, [path.join(ROOT, 'tools/bench/static-server.mjs'), String(port), JSON.stringify(site)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${port}`;
  const [firstPage = '/'] = Object.keys(site.pages);
  await Promise.race([
    waitForHttp(url + firstPage),
    exited.then(([code]) => {
      throw new Error(`${name}: static-server exited with ${code} before it answered`);
    }),
  ]);
  return {
    url,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
