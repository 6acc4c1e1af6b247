// The static twin of Meridian's pages: the HTML and CSS our entry sends, with every script
// removed, served from memory the way the floor is. Its paint is what the page's own content
// costs without any framework; Meridian's is measured against it in the same run.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/app-server.mjs';
import { startStaticSite } from './static-site.mjs';

/** public/ as our server sends it (src/server/serving/files/site-files.ts): revalidated each time. */
const PUBLIC_FILES = 'public, max-age=0';

const SCRIPT = /<script\b[^>]*>[\s\S]*?<\/script\s*>/gi;
/** Preloads of scripts (Next's `<link rel="preload" as="script">`, module preloads): with no script, nothing to preload. */
const SCRIPT_PRELOAD = /<link\b(?=[^>]*\b(?:as="script"|rel="modulepreload"))[^>]*>/gi;

/**
 * `html` with every script and script preload removed: inline and external, Next's page
 * data and its bootstrap alike. Everything else is left as it was.
 * @param {string} html
 */
export function staticTwin(html) {
  return html.replace(SCRIPT, '').replace(SCRIPT_PRELOAD, '');
}

/**
 * Fetches each of `pages` from our entry at `appUrl` as a browser would get it (decoded),
 * writes its twin under `dir`, and serves the twins at the same paths, with public/ beside
 * them (the slides' images, the icon), on `port`.
 * @param {{ appUrl: string, pages: { id: string, path: string }[], port: number, dir?: string }} options
 */
export async function startTwinServer({ appUrl, pages, port, dir = path.join(ROOT, 'bench-results/twin') }) {
  mkdirSync(dir, { recursive: true });
  /** @type {Record<string, string>} */
  const files = {};
  for (const page of pages) {
    const response = await fetch(appUrl + page.path, { redirect: 'manual' });
    if (response.status !== 200) throw new Error(`static twin: ${page.path} answered ${response.status}, not 200`);
    const file = path.join(dir, `${page.id}.html`);
    writeFileSync(file, staticTwin(await response.text()));
    files[page.path] = file;
  }
  const server = await startStaticSite({
    name: 'static twin',
    port,
    site: { pages: files, folders: [{ prefix: '/', dir: path.join(ROOT, 'public'), cacheControl: PUBLIC_FILES }] },
  });
  return { ...server, pages: pages.map((page) => ({ id: `twin ${page.id}`, twinOf: page.id, url: server.url + page.path })) };
}
