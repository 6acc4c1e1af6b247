import type { LocaleLoadFailure } from '@/shared/observability';

/** What the serving process tells the renderer over the IPC channel. */
export type ToRenderer = { type: 'start'; routeHandoverKey: string };

/** What the renderer tells the serving process. */
export type FromRenderer =
  | { type: 'listening'; port: number }
  | { type: 'usage'; cpuSeconds: number; residentBytes: number }
  | { type: 'locale-load-failed'; failure: LocaleLoadFailure };
