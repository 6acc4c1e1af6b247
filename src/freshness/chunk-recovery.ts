import { flushTelemetry, reportTelemetry } from '@/shared/telemetry-client';
import { isChunkLoadError, isChunkResourceFailure } from './chunk-errors';
import { decideChunkReload } from './reload-guard';

/** A chunk failed again right after the reload that should have cured it: the error page shows. */
export class ChunkReloadBlockedError extends Error {
  constructor(readonly reason: string) {
    super(`A part of the page failed to load again after a reload: ${reason}`);
    this.name = 'ChunkReloadBlockedError';
  }
}

let blocked: ChunkReloadBlockedError | null = null;
/** One failure often shows twice (the script's error event, then the import's rejection): act once. */
let reloading = false;
const listeners = new Set<() => void>();

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * A part of the page failed to load (most often: a chunk of a build the
 * servers no longer have). Reloads once; a second failure within the guard's
 * lifetime shows the error page instead. Both are reported.
 */
export function recoverFromChunkError(reason: string): void {
  if (blocked || reloading) return;
  if (decideChunkReload(sessionStorageOrNull(), Date.now()) === 'reload') {
    reloading = true;
    reportTelemetry({ type: 'chunk_reload', reason });
    flushTelemetry();
    window.location.reload();
    return;
  }
  reportTelemetry({ type: 'chunk_reload_blocked', reason });
  flushTelemetry();
  blocked = new ChunkReloadBlockedError(reason);
  for (const listener of listeners) listener();
}

export function blockedChunkError(): ChunkReloadBlockedError | null {
  return blocked;
}

export function onBlockedChunkError(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Failed script and style chunks, and failed dynamic imports nobody caught. */
export function installChunkErrorListeners(): () => void {
  const onResourceError = (event: Event) => {
    const target = event.target as { tagName?: string; src?: string; href?: string; rel?: string; as?: string } | null;
    if (target !== window && isChunkResourceFailure(target)) recoverFromChunkError(`${target?.tagName} ${target?.src ?? target?.href}`);
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    if (isChunkLoadError(event.reason)) recoverFromChunkError(String((event.reason as Error).message ?? event.reason));
  };
  // Resource errors do not bubble: only a capturing listener on window sees them.
  window.addEventListener('error', onResourceError, { capture: true });
  window.addEventListener('unhandledrejection', onRejection);
  return () => {
    window.removeEventListener('error', onResourceError, { capture: true });
    window.removeEventListener('unhandledrejection', onRejection);
  };
}
