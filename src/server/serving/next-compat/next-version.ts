/**
 * The Next release this folder's readers and writers of Next's and React's private formats
 * were checked against (package.json pins the same): those formats may change in any
 * release, so the answers made from them are given only by this one.
 */
export const CHECKED_NEXT_VERSION = '16.4.5';

/** A Next this folder cannot work with: the message names its version and the way out. */
export class UnsupportedNextError extends Error {}

/** The Next the standalone build runs, as `requireFromBuild` resolves it. */
export function installedNextVersion(requireFromBuild: NodeJS.Require): string {
  return (requireFromBuild('next/package.json') as { version: string }).version;
}

/** Fails with one line naming both versions and the way out, unless the build runs the checked Next. */
export function checkNextVersion(requireFromBuild: NodeJS.Require): void {
  const version = installedNextVersion(requireFromBuild);
  if (version === CHECKED_NEXT_VERSION) return;
  throw new UnsupportedNextError(
    `Next ${version} is not the Next src/server/serving/next-compat/ was checked against (${CHECKED_NEXT_VERSION}): ` +
      `set NEXT_ANSWERS_ALL=true to let Next answer the prerendered pages, router payloads and not-found pages itself, ` +
      `or check the folder against Next ${version} and update CHECKED_NEXT_VERSION.`,
  );
}
