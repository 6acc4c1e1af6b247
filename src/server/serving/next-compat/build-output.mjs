// What `next build` wrote that the build's second half (src/build/build-server.mjs) reads too:
// Next's private formats, kept in next-compat/ with the server's readers, in plain JavaScript
// for the build to run.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The routes `next build` prerendered as pages answered 200 (`/en`, `/ja`, ...), by their
 * internal paths; Next's own (`/_not-found`, `/_global-error`) left out.
 * @param {string} nextDir the build's `.next` folder
 * @returns {string[]}
 */
export function prerenderedPageRoutes(nextDir) {
  /** @type {{ routes: Record<string, { routeType?: string, initialStatus?: number }> }} */
  const manifest = JSON.parse(readFileSync(path.join(nextDir, 'prerender-manifest.json'), 'utf8'));
  return Object.entries(manifest.routes)
    .filter(([route, entry]) => entry.routeType === 'page' && (entry.initialStatus ?? 200) === 200 && !route.startsWith('/_'))
    .map(([route]) => route);
}

/**
 * The id next.config.js gave this build (Next's deploymentId), as Next recorded it.
 * @param {string} nextDir the build's `.next` folder
 * @returns {string}
 */
export function builtDeploymentId(nextDir) {
  const { config } = JSON.parse(readFileSync(path.join(nextDir, 'required-server-files.json'), 'utf8'));
  if (typeof config.deploymentId !== 'string' || !config.deploymentId) {
    throw new Error('the build has no deploymentId; next.config.js sets it from BUILD_ID');
  }
  return config.deploymentId;
}
