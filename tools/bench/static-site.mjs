// Starts tools/bench/static-server.mjs, a process of its own like our entry, for the floor
// (tools/bench/floor.mjs) and the static twin (tools/bench/static-twin.mjs).
import path from 'node:path';
import { ROOT } from '../lib/app-server.mjs';
import { startDaemon } from '../lib/daemon.mjs';
import { answers200 } from '../lib/wait.mjs';

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
  const url = `http://127.0.0.1:${port}`;
  const [firstPage = '/'] = Object.keys(site.pages);
  const server = await startDaemon({
    name,
    command: process.execPath,
    args: [path.join(ROOT, 'tools/bench/static-server.mjs'), String(port), JSON.stringify(site)],
    ready: () => answers200(url + firstPage),
  });
  return {
    url,
    async stop() {
      await server.stop();
    },
  };
}
