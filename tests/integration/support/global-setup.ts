import { ensureTestBuilds } from '../../../tools/lib/builds.mjs';

/**
 * The production builds the suites use, made once per source state and shared
 * with the end-to-end tests. MERIDIAN_REUSE_BUILD=true skips the check, for
 * iterating on tests alone.
 */
export default function setup(): void {
  if (process.env.MERIDIAN_REUSE_BUILD === 'true') return;
  ensureTestBuilds();
}
