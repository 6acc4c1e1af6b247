// Second half of `npm run build`: compiles our Node entry (src/server) into the
// standalone output and puts beside it what Next's file tracing leaves out.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { brotliCompressSync, constants } from 'node:zlib';
import path from 'node:path';
import { build } from 'esbuild';
import { buildRevision } from './build-identity.mjs';
import { checkBuiltSiteOrigin } from './built-site-origin.mjs';
import { trimInlinePageData } from './inline-page-data.mjs';
import { asciiComments } from './one-byte-source.mjs';
import { builtDeploymentId, prerenderedPageRoutes } from '../server/serving/next-compat/build-output.mjs';

// The build imports nothing of tools/ (the harness): the repository root is two folders up.
const ROOT = path.resolve(import.meta.dirname, '../..');

const STANDALONE = path.join(ROOT, '.next', 'standalone');

/** BUILD_REVISION stands in for git's HEAD where there is no .git (a Docker build). */
function buildInfo() {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return {
    buildId: builtDeploymentId(path.join(ROOT, '.next')),
    version,
    revision: buildRevision(process.env, ROOT),
    builtAt: Date.now(),
  };
}
if (!existsSync(path.join(STANDALONE, 'server.js'))) {
  throw new Error('build-server: .next/standalone is missing; run `next build` first (output: "standalone")');
}

// Three entries: the serving process, the renderer it starts (Next's handler, in a process of its
// own), and the cache handler the renderer gives Next (src/server/serving/next-compat/next-app.ts).
const ENTRIES = {
  'meridian-server': 'src/server/main.ts',
  'meridian-renderer': 'src/server/rendering/renderer-main.ts',
  'meridian-page-cache': 'src/server/serving/next-compat/page-cache-handler.ts',
};
await build({
  entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, source]) => [name, path.join(ROOT, source)])),
  outdir: STANDALONE,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'cjs',
  sourcemap: 'linked',
  // Next runs from the standalone node_modules it traced; everything else is bundled in.
  external: ['next', 'next/*'],
  alias: { '@': path.join(ROOT, 'src') },
  logLevel: 'warning',
});
// One character past ASCII in a comment would double the heap the entry's source takes (one-byte-source.mjs).
for (const name of Object.keys(ENTRIES)) {
  const entry = path.join(STANDALONE, `${name}.cjs`);
  const oneByte = asciiComments(readFileSync(entry, 'utf8'));
  writeFileSync(entry, oneByte.source);
  if (oneByte.untouched)
    console.warn(
      `build-server: ${name}.cjs keeps a non-ASCII character in code (${oneByte.untouched}); V8 holds it as two bytes a character`,
    );
}

/** @type {[from: string, to: string][]} */
const copies = [
  [path.join(ROOT, '.next', 'static'), path.join(STANDALONE, '.next', 'static')],
  [path.join(ROOT, 'public'), path.join(STANDALONE, 'public')],
  [path.join(ROOT, 'locales'), path.join(STANDALONE, 'locales')],
];
for (const [from, to] of copies) {
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
}
// Brotli copies of the hashed scripts and styles, served by our entry to
// browsers that accept br (Next itself only gzips): a smaller first visit.
let compressed = 0;
for (const entry of readdirSync(path.join(STANDALONE, '.next', 'static'), { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !/\.(js|css)$/.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const source = readFileSync(file);
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
  );
  compressed += 1;
}

/**
 * builds/latest.json and builds/meta/<id>.json, which the server serves as
 * they are. The manifest's shape lives in src/freshness/route-manifest.ts,
 * compiled here for the one call.
 * @param {ReturnType<typeof buildInfo>} info
 */
async function writeBuildFiles(info) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'meridian-build-files-'));
  try {
    const compiled = path.join(scratch, 'route-manifest.mjs');
    await build({
      entryPoints: [path.join(ROOT, 'src/freshness/route-manifest.ts')],
      outfile: compiled,
      bundle: true,
      platform: 'node',
      format: 'esm',
      alias: { '@': path.join(ROOT, 'src') },
      logLevel: 'warning',
    });
    const { routeManifest } = await import(compiled);
    const latest = { id: info.buildId, timestamp: info.builtAt };
    const buildsDir = path.join(STANDALONE, 'builds');
    rmSync(buildsDir, { recursive: true, force: true });
    mkdirSync(path.join(buildsDir, 'meta'), { recursive: true });
    writeFileSync(path.join(buildsDir, 'latest.json'), JSON.stringify(latest));
    writeFileSync(
      path.join(buildsDir, 'meta', `${info.buildId}.json`),
      JSON.stringify(routeManifest(latest, prerenderedPageRoutes(path.join(ROOT, '.next')))),
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The prerendered pages with their inline page data trimmed (src/build/inline-page-data.mjs:
 * the stylesheet text it repeats left out, its strings single-quoted): the HTML a visitor
 * parses before the first paint is that much smaller.
 */
function trimPrerenderedPages() {
  let saved = 0;
  for (const route of prerenderedPageRoutes(path.join(ROOT, '.next'))) {
    const file = path.join(STANDALONE, '.next', 'server', 'app', `${route}.html`);
    if (!existsSync(file)) continue;
    const trimmed = trimInlinePageData(readFileSync(file, 'utf8'));
    writeFileSync(file, trimmed.html);
    saved += trimmed.savedBytes;
  }
  return saved;
}

checkBuiltSiteOrigin(path.join(STANDALONE, '.next', 'server', 'app'));
const info = buildInfo();
const trimmedBytes = trimPrerenderedPages();
writeFileSync(path.join(STANDALONE, 'build-info.json'), `${JSON.stringify(info, null, 2)}\n`);
await writeBuildFiles(info);

console.log(
  `build-server: build ${info.buildId}: wrote .next/standalone/meridian-server.cjs, meridian-renderer.cjs, meridian-page-cache.cjs, build-info.json, builds/, ` +
    `static files (${compressed} with brotli copies), public/ and locales/; ${trimmedBytes} bytes of inline page data ` +
    'trimmed from the prerendered pages',
);
