'use client';

import { useSyncExternalStore } from 'react';
import { blockedChunkError, onBlockedChunkError } from './chunk-recovery';

/**
 * Throws a chunk failure that a reload could not cure into React, so the
 * nearest error boundary shows the error page. Rendered inside the pages'
 * layout, where `app/[locale]/error.tsx` catches it.
 */
export function ChunkErrorSurface() {
  const error = useSyncExternalStore(onBlockedChunkError, blockedChunkError, () => null);
  if (error) throw error;
  return null;
}
