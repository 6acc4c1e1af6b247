// Second half of `npm run build`: compiles our Node entry (src/server) into the
// standalone output and puts beside it what Next's file tracing leaves out.
import { cpSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { ROOT } from './lib/app-server.mjs';

const STANDALONE = path.join(ROOT, '.next', 'standalone');
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
console.log('build-server: wrote .next/standalone/meridian-server.cjs with static files, public/ and locales/');
