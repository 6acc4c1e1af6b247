// A package's tarball from the npm registry, as pinned in tools/pins.mjs: fetched with `npm pack`
// and refused unless its sha512 is the pinned integrity (the registry's `dist.integrity`). Node's
// built-in modules only: the pinned Node itself comes this way, before `npm ci`.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

// npm reaches the registry here only through the system CA bundle (as in .ci/run).
const CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/** The first 12 hex digits of an integrity: the key of the cache folder its files unpack into. @param {string} integrity */
export const integrityKey = (integrity) =>
  Buffer.from(integrity.replace(/^sha512-/, ''), 'base64')
    .toString('hex')
    .slice(0, 12);

/**
 * Downloads `name@version` into `dir` and returns the tarball's path; throws, naming both
 * integrities, when it is not the pinned one.
 * @param {{ name: string, version: string, integrity: string }} pinned
 * @param {string} dir
 */
export function packPinned({ name, version, integrity }, dir) {
  const env = { ...process.env, NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS || CA_BUNDLE };
  const out = execFileSync('npm', ['pack', `${name}@${version}`, '--json', '--pack-destination', dir], {
    cwd: dir,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const tarball = path.join(dir, JSON.parse(out)[0].filename);
  const actual = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (actual !== integrity)
    throw new Error(
      `npm-tarball: ${name}@${version} from the registry has integrity ${actual}, expected ${integrity}; refusing to use it. ` +
        'Check the registry npm is configured with, or move the pin in tools/pins.mjs after checking the new version.',
    );
  return tarball;
}
