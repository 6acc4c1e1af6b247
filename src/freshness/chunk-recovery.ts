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
let recovering = false;
const listeners = new Set<() => void>();
/** While the site does not answer (a restart, every pod replaced at once), the reload waits: 1 s, doubling, up to 30 s. */
const FIRST_PROBE_DELAY_MS = 1000;
const MAX_PROBE_DELAY_MS = 30_000;

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Whether the page's own URL answers without a server error; a network failure is a no. */
async function siteAnswers(): Promise<boolean> {
  try {
    const response = await fetch(window.location.href, { method: 'HEAD', cache: 'no-store' });
    return response.status < 500;
  } catch {
    return false;
  }
}

async function untilSiteAnswers(): Promise<void> {
  for (let delayMs = FIRST_PROBE_DELAY_MS; !(await siteAnswers()); delayMs = Math.min(MAX_PROBE_DELAY_MS, delayMs * 2)) {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}

/**
 * A part of the page failed to load (most often: a chunk of a build the
 * servers no longer have). Reloads once, as soon as the site answers (a chunk
 * that failed because no server answered would otherwise reload into the
 * browser's offline page); a second failure within the guard's lifetime shows
 * the error page instead. Both are reported.
 */
export function recoverFromChunkError(reason: string): void {
  if (blocked || recovering) return;
  recovering = true;
  void untilSiteAnswers().then(() => {
    if (decideChunkReload(sessionStorageOrNull(), Date.now()) === 'reload') {
      reportTelemetry({ type: 'chunk_reload', reason });
      flushTelemetry();
      window.location.reload();
      return;
    }
    reportTelemetry({ type: 'chunk_reload_blocked', reason });
    flushTelemetry();
    blocked = new ChunkReloadBlockedError(reason);
    for (const listener of listeners) listener();
  });
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
