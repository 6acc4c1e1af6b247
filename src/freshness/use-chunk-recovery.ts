import { useEffect } from 'react';
import { installChunkErrorListeners } from './chunk-recovery';

/** Recovers from chunks that fail to load, for as long as the page lives. */
export function useChunkRecovery(): void {
  useEffect(() => installChunkErrorListeners(), []);
}
