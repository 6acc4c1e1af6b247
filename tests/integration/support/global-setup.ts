import { E2E_BUILD_ENV, ensureBuild } from '../../../scripts/lib/build.mjs';

/** One production build per source state, shared with the end-to-end tests. */
export default function setup(): void {
  ensureBuild(E2E_BUILD_ENV);
}
