/**
 * Never rendered: a path the site does not have gets global-not-found.tsx, and no
 * route calls notFound() above the locale layout. Without a root not-found of its
 * own, Next writes its default 404 page (1.4 KB) into every page's inline data.
 */
export default function RootNotFound() {
  return null;
}
