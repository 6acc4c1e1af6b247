// The floor: a hello-world App Router app (tools/bench/floor) built with the project's own
// Next, React and bundler settings, which the bench measures in the same run as Meridian.
// Built once per source state, like the app's own builds (tools/lib/builds.mjs), and
// served from memory with brotli, as our entry serves Meridian's pages and assets.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/app-server.mjs';
import { hashInputs } from '../lib/builds.mjs';
import { runSync } from '../lib/command.mjs';
import { pinnedNode } from '../node-runtime.mjs';
import { IMMUTABLE, startStaticSite } from './static-site.mjs';
import { log } from './util.mjs';

export const FLOOR_DIR = path.join(ROOT, 'tools/bench/floor');
const FLOOR_PAGE = path.join(FLOOR_DIR, '.next/server/app/index.html');
const HASH_FILE = path.join(FLOOR_DIR, '.next/floor-source-hash');
/** What shapes the floor's build: its own sources, the project's Next settings and the installed packages. */
const INPUTS = ['tools/bench/floor/app', 'tools/bench/floor/next.config.mjs', 'next.config.js', 'package-lock.json'];

/** Builds the floor unless its build matches the current sources. */
export function ensureFloorBuild() {
  const wanted = hashInputs(INPUTS);
  if (existsSync(FLOOR_PAGE) && existsSync(HASH_FILE) && readFileSync(HASH_FILE, 'utf8') === wanted) {
    log('floor: sources unchanged, reusing tools/bench/floor/.next');
    return;
  }
  log('floor: next build tools/bench/floor (a hello world with the project settings)');
  // On the Node the app's servers run on (app-server.mjs), whatever Node runs the bench.
  runSync(pinnedNode(), [path.join(ROOT, 'node_modules/next/dist/bin/next'), 'build', FLOOR_DIR], {
    cwd: ROOT,
    echo: true,
    env: { NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (!existsSync(FLOOR_PAGE)) throw new Error(`floor: the build left no ${path.relative(ROOT, FLOOR_PAGE)}`);
  writeFileSync(HASH_FILE, wanted);
}

/**
 * Serves the floor's page at `/` and its assets on `port` (tools/bench/static-site.mjs, a
 * process of its own like our entry). Returns the page's URL and a stop().
 * @param {{ port: number }} options
 */
export async function startFloorServer({ port }) {
  const server = await startStaticSite({
    name: 'floor',
    port,
    site: {
      pages: { '/': FLOOR_PAGE },
      folders: [{ prefix: '/_next/static/', dir: path.join(FLOOR_DIR, '.next/static'), cacheControl: IMMUTABLE }],
    },
  });
  return { url: `${server.url}/`, stop: server.stop };
}
