// Second half of `npm run build`: compiles our Node entry (src/server) into the
// standalone output and puts beside it what Next's file tracing leaves out.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';
import path from 'node:path';
import { build } from 'esbuild';
import { ROOT } from './lib/app-server.mjs';
import { checkedId, gitRevision, resolveBuildId } from './lib/build-identity.mjs';

const STANDALONE = path.join(ROOT, '.next', 'standalone');

/** The build's identity; BUILD_REVISION stands in for git's HEAD where there is no .git (a Docker build). */
function buildInfo() {
  const revision = checkedId('BUILD_REVISION', process.env.BUILD_REVISION?.trim() || gitRevision(ROOT));
  const builtAt = Date.now();
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return { buildId: resolveBuildId(process.env, revision, builtAt), version, revision, builtAt };
}
if (!existsSync(path.join(STANDALONE, 'server.js'))) {
  throw new Error('build-server: .next/standalone is missing; run `next build` first (output: "standalone")');
}

await build({
  entryPoints: [path.join(ROOT, 'src/server/main.ts')],
  outfile: path.join(STANDALONE, 'meridian-server.cjs'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  // Next runs from the standalone node_modules it traced; everything else is bundled in.
  external: ['next', 'next/*'],
  alias: { '@': path.join(ROOT, 'src') },
  logLevel: 'warning',
});

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
  writeFileSync(`${file}.br`, brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } }));
  compressed += 1;
}

writeFileSync(path.join(STANDALONE, 'build-info.json'), `${JSON.stringify(buildInfo(), null, 2)}\n`);

console.log(`build-server: wrote .next/standalone/meridian-server.cjs, build-info.json, static files (${compressed} with brotli copies), public/ and locales/`);
