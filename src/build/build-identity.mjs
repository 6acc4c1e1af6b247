// One build identity everywhere: next.config.js makes it Next's deploymentId,
// src/build/build-server.mjs reads it back into build-info.json (meridian_build_info,
// the logs, builds/latest.json), and scripts/image.mjs tags the image with it. Beside the
// build server, whose identity it is; the image script and the tests import it from here.
import { execFileSync } from 'node:child_process';

/** Safe in a URL query, a file name, an image tag and a label value. */
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The commit checked out in `cwd`, or 'unknown' without git or a repository (a Docker build).
 * @param {string} cwd
 */
export function gitRevision(cwd) {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

/**
 * `value` when it is a valid id; throws naming `name` otherwise.
 * @param {string} name
 * @param {string} value
 */
export function checkedId(name, value) {
  if (!ID_PATTERN.test(value)) {
    throw new Error(
      `build-identity: ${name}="${value.slice(0, 80)}" must be 1-64 letters, digits, dots, dashes or underscores, starting with a letter or digit`,
    );
  }
  return value;
}

/** @typedef {Record<string, string | undefined>} Environment */

/**
 * BUILD_REVISION (a build without .git, such as the Docker build), else git's HEAD.
 * @param {Environment} env
 * @param {string} cwd
 */
export function buildRevision(env, cwd) {
  const given = env.BUILD_REVISION?.trim();
  return given ? checkedId('BUILD_REVISION', given) : gitRevision(cwd);
}

/**
 * BUILD_ID from the environment, else the short commit, else the build time.
 * @param {Environment} env
 * @param {string} revision
 * @param {number} [now]
 */
export function resolveBuildId(env, revision, now = Date.now()) {
  const fallback = revision === 'unknown' ? `t${now}` : revision.slice(0, 12);
  return checkedId('BUILD_ID', env.BUILD_ID?.trim() || fallback);
}
