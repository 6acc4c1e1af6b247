// The build's identity, decided once per `next build` (next.config.js makes it
// Next's deploymentId; scripts/build-server.mjs reads it back from Next's output).
import { execFileSync } from 'node:child_process';

/** Letters, digits, dots, dashes, underscores: safe in a URL query, a file name and an image tag. */
export const BUILD_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function gitRevision(cwd) {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

/** BUILD_ID from the environment (CI passes the image tag), else the short commit, else the time. */
export function resolveBuildId(env, cwd) {
  const given = env.BUILD_ID?.trim();
  if (given) {
    if (!BUILD_ID_PATTERN.test(given)) {
      throw new Error(`BUILD_ID="${given.slice(0, 80)}" must be 1-64 letters, digits, dots, dashes or underscores, starting with a letter or digit`);
    }
    return given;
  }
  const revision = gitRevision(cwd);
  return revision === 'unknown' ? `t${Date.now()}` : revision.slice(0, 12);
}
