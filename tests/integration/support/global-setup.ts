import { E2E_BUILD_ENV, ensureBuild } from '../../../scripts/lib/build.mjs';

/**
 * One production build per source state, shared with the end-to-end tests.
 * MERIDIAN_REUSE_BUILD=true skips the check, for iterating on tests alone.
 */
export default function setup(): void {
  if (process.env.MERIDIAN_REUSE_BUILD === 'true') return;
  ensureBuild(E2E_BUILD_ENV);
}
