/**
 * What bundlers and browsers say when a script chunk or a dynamic import fails:
 * Turbopack and webpack name the error ChunkLoadError ("Failed to load chunk
 * … from module …", "Loading chunk 12 failed", "Loading CSS chunk 12 failed"),
 * Chrome, Firefox and Safari each word a failed dynamic import their own way.
 */
const CHUNK_FAILURE_MESSAGES = [
  /^Failed to load chunk /,
  /^Loading (?:CSS )?chunk [\w-]+ failed/,
  /^Failed to fetch dynamically imported module/,
  /^error loading dynamically imported module/,
  /^Importing a module script failed/,
];

const STATIC_PREFIX = '/_next/static/';

function isChunkFailure(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { name, message } = value as { name?: unknown; message?: unknown };
  if (name === 'ChunkLoadError') return true;
  return typeof message === 'string' && CHUNK_FAILURE_MESSAGES.some((pattern) => pattern.test(message));
}

/** Whether an error (or the error it wraps) is a chunk that failed to load. */
export function isChunkLoadError(error: unknown): boolean {
  if (isChunkFailure(error)) return true;
  return typeof error === 'object' && error !== null && isChunkFailure((error as { cause?: unknown }).cause);
}

function isBuildAsset(url: string | undefined): boolean {
  if (!url) return false;
  try {
    return new URL(url, 'http://localhost').pathname.startsWith(STATIC_PREFIX);
  } catch {
    return false;
  }
}

/** Whether an element whose load failed is one of the build's scripts or styles. */
export function isChunkResourceFailure(target: { tagName?: string; src?: string; href?: string; rel?: string } | null): boolean {
  if (!target) return false;
  if (target.tagName === 'SCRIPT') return isBuildAsset(target.src);
  if (target.tagName !== 'LINK') return false;
  const rel = (target.rel ?? '').toLowerCase().split(/\s+/);
  return (rel.includes('stylesheet') || rel.includes('preload') || rel.includes('modulepreload')) && isBuildAsset(target.href);
}
