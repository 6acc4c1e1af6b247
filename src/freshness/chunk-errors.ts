import { BUILD_ASSETS_PREFIX } from '@/shared/site-paths';

/**
 * What bundlers and browsers say when a script chunk or a dynamic import fails.
 * Turbopack's browser runtime (the one Next 16 builds with) throws a
 * ChunkLoadError "Failed to load chunk /_next/static/chunks/….js from module
 * 1234" (or "as a runtime dependency of chunk …"); webpack's runtime says
 * "Loading chunk 12 failed." and "Loading css chunk 12 failed.",
 * mini-css-extract-plugin "Loading CSS chunk 12 failed.". When the name is
 * lost on the way (a re-thrown copy, a serialised error) the message remains.
 * The browsers each word a failed dynamic import their own way: Chrome,
 * Firefox, Safari, in that order.
 */
const CHUNK_FAILURE_MESSAGES = [
  /^Failed to load chunk /,
  /^Loading (?:css )?chunk \S+ failed/i,
  /^Failed to fetch dynamically imported module/,
  /^error loading dynamically imported module/,
  /^Importing a module script failed/,
];

function isChunkFailure(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { name, message } = value as { name?: unknown; message?: unknown };
  if (name === 'ChunkLoadError') return true;
  return typeof message === 'string' && CHUNK_FAILURE_MESSAGES.some((pattern) => pattern.test(message));
}

/** Whether an error, or the error it wraps (one level: React and Next wrap once), is a chunk that failed to load. */
export function isChunkLoadError(error: unknown): boolean {
  if (isChunkFailure(error)) return true;
  return typeof error === 'object' && error !== null && isChunkFailure((error as { cause?: unknown }).cause);
}

/** Whether a URL, relative or of any origin (an asset prefix may name a CDN), is one of the build's assets. */
function isBuildAsset(url: string | undefined): boolean {
  if (!url) return false;
  try {
    return new URL(url, 'http://base.invalid').pathname.startsWith(BUILD_ASSETS_PREFIX);
  } catch {
    return false;
  }
}

/** A link that loads a script or a stylesheet; preloaded fonts and images do not break the page when they fail. */
function loadsScriptOrStyle(link: { rel?: string; as?: string }): boolean {
  const rel = (link.rel ?? '').toLowerCase().split(/\s+/);
  if (rel.includes('stylesheet') || rel.includes('modulepreload')) return true;
  return rel.includes('preload') && link.as?.toLowerCase() === 'script';
}

/** Whether an element whose load failed is one of the build's scripts or styles. */
export function isChunkResourceFailure(
  target: { tagName?: string; src?: string; href?: string; rel?: string; as?: string } | null,
): boolean {
  if (target?.tagName === 'SCRIPT') return isBuildAsset(target.src);
  if (target?.tagName === 'LINK') return loadsScriptOrStyle(target) && isBuildAsset(target.href);
  return false;
}
