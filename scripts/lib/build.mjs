// Builds the app once per source state: the hash of everything that shapes the
// build is kept beside it, and an unchanged tree reuses the build.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, SERVER_ENTRY } from './app-server.mjs';

const INPUTS = [
  'src',
  'locales',
  'public',
  'tests/fixtures',
  'scripts/build-server.mjs',
  'next.config.js',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
const HASH_FILE = path.join(ROOT, '.next', 'meridian-source-hash');

function* files(entry) {
  const full = path.join(ROOT, entry);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const child of readdirSync(full).sort()) yield* files(path.join(entry, child));
  } else {
    yield entry;
  }
}

export function sourceHash(env) {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(env));
  for (const input of INPUTS) {
    for (const file of files(input)) {
      hash.update(file);
      hash.update(readFileSync(path.join(ROOT, file)));
    }
  }
  return hash.digest('hex');
}

/** Runs `npm run build` with `env` unless the current build already matches the sources and env. */
export function ensureBuild(env = {}) {
  const wanted = sourceHash(env);
  const current = existsSync(HASH_FILE) ? readFileSync(HASH_FILE, 'utf8') : '';
  if (current === wanted && existsSync(path.join(ROOT, SERVER_ENTRY))) {
    console.log('build: sources unchanged, reusing .next');
    return;
  }
  console.log('build: npm run build');
  execFileSync('npm', ['run', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
  });
  writeFileSync(HASH_FILE, wanted);
}

/** The build the end-to-end tests run: production, plus the error-page fixtures. */
export const E2E_BUILD_ENV = { MERIDIAN_E2E_FIXTURES: 'true' };
