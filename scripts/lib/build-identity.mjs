// One build identity everywhere: the rule that scripts/build-server.mjs writes
// into build-info.json (meridian_build_info, the logs) and scripts/image.mjs
// tags the image with.
import { execFileSync } from 'node:child_process';

const ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** The commit checked out in `cwd`, or 'unknown' without git or a repository (a Docker build). */
export function gitRevision(cwd) {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

/** `value` when it is 1-64 letters, digits, dots, dashes or underscores; throws naming `name` otherwise. */
export function checkedId(name, value) {
  if (!ID_PATTERN.test(value)) throw new Error(`build-identity: ${name}="${value}" must be 1-64 letters, digits, dots, dashes or underscores`);
  return value;
}

/** BUILD_ID from the environment, else the short commit, else the build time. */
export function resolveBuildId(env, revision, now = Date.now()) {
  const fallback = revision === 'unknown' ? `t${now}` : revision.slice(0, 12);
  return checkedId('BUILD_ID', env.BUILD_ID?.trim() || fallback);
}
