'use client';

import { useEffect } from 'react';
import { ChunkReloadBlockedError, recoverFromChunkError } from '@/freshness/chunk-recovery';
import { isChunkLoadError } from '@/freshness/chunk-errors';
import { BlankLayout } from '@/ui/layouts/blank-layout';
import { ErrorBoundaryView } from '@/ui/error-view/error-boundary-view';

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const chunkFailure = error instanceof ChunkReloadBlockedError || isChunkLoadError(error);

  useEffect(() => {
    // A chunk that failed while rendering: reload once, as for any chunk failure.
    if (isChunkLoadError(error) && !(error instanceof ChunkReloadBlockedError)) recoverFromChunkError(error.message);
  }, [error]);

  return (
    <BlankLayout>
      {/* Rendering again cannot bring a missing chunk back: retrying is a reload. */}
      <ErrorBoundaryView error={error} reset={chunkFailure ? () => window.location.reload() : reset} />
    </BlankLayout>
  );
}
