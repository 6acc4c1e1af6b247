import { json } from 'node:stream/consumers';
import type { Logger } from 'pino';
import { CURRENT_BUILD_PATH } from '@/shared/site-paths';
import { askService } from '@/server/serving/service-request';

/** A build as `builds/current.json` names it. */
export interface BuildRef {
  id: string;
  /** When the build was made, in ms since the epoch. */
  timestamp: number;
}

/**
 * What a canary release looks like from one pod: the stable build (the one tabs
 * belong on), and the canary being judged, if any (tabs already on it stay).
 */
export interface ReleaseView {
  stable: BuildRef;
  canary: BuildRef | null;
}

/** A change of stable or canary reaches every pod within this, and so every tab within it plus a poll. */
export const RELEASE_REFRESH_MS = 5000;
/** Until the stable Service first answers (the pod is not ready before): asked again this soon. */
const UNKNOWN_REFRESH_MS = 1000;
/** A Service that does not answer within this is treated as unreachable until the next refresh. */
const REQUEST_TIMEOUT_MS = 2000;
/** As src/build/build-identity.mjs allows them. */
const BUILD_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The build a `builds/current.json` body names, or null when it is not one. */
export function parseBuildRef(body: unknown): BuildRef | null {
  if (typeof body !== 'object' || body === null) return null;
  const { id, timestamp } = body as { id?: unknown; timestamp?: unknown };
  if (typeof id !== 'string' || !BUILD_ID.test(id) || typeof timestamp !== 'number' || !Number.isFinite(timestamp)) return null;
  return { id, timestamp };
}

/**
 * The view from the answers of the two Services (Argo Rollouts points stableService at
 * the stable ReplicaSet, and canaryService at the canary's, or at the stable one when
 * there is none or it was aborted). Without a stable build there is no view. A pod
 * whose build is not the stable one is the canary, whatever canaryService said last.
 */
export function decideView(self: BuildRef, stable: BuildRef | null, canaryAnswer: BuildRef | null): ReleaseView | null {
  if (!stable) return null;
  if (canaryAnswer && canaryAnswer.id !== stable.id) return { stable, canary: canaryAnswer };
  return { stable, canary: self.id === stable.id ? null : self };
}

async function fetchBuild(origin: string): Promise<BuildRef> {
  const answer = await askService(new URL(CURRENT_BUILD_PATH, origin), {
    timeoutMs: REQUEST_TIMEOUT_MS,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const build = parseBuildRef(await json(answer).catch(() => null));
  if (answer.statusCode !== 200 || !build) throw new Error(`${origin}${CURRENT_BUILD_PATH} answered ${answer.statusCode} without a build`);
  return build;
}

export interface ReleaseWatch {
  /** The view as of the last refresh; null until the stable build has answered once. */
  current(): ReleaseView | null;
  /** Whether a view named `id` stable or canary (one build per release this pod lives through). */
  wasLive(id: string): boolean;
  /** Asks both Services now; resolves once both answered or failed. */
  refresh(): Promise<void>;
  stop(): void;
}

/**
 * Asks the stable and canary Services which build they serve, at start and every
 * RELEASE_REFRESH_MS (every UNKNOWN_REFRESH_MS while there is no view yet). A Service
 * that fails keeps its last answer (a failure is logged once per run of failures);
 * `onChange` hears every new view.
 */
export function watchRelease(options: {
  self: BuildRef;
  services: { stable: string; canary: string };
  logger: Logger;
  onChange?(view: ReleaseView): void;
  /** Only tests replace it. */
  fetchBuildOf?(origin: string): Promise<BuildRef>;
}): ReleaseWatch {
  const fetchOf = options.fetchBuildOf ?? fetchBuild;
  const last: Record<'stable' | 'canary', BuildRef | null> = { stable: null, canary: null };
  const failing = { stable: false, canary: false };
  let view: ReleaseView | null = null;
  const wasLive = new Set<string>();

  async function ask(role: 'stable' | 'canary'): Promise<void> {
    try {
      last[role] = await fetchOf(options.services[role]);
      failing[role] = false;
    } catch (error) {
      if (!failing[role])
        options.logger.warn({ service: options.services[role], err: String(error) }, `The ${role} Service does not answer`);
      failing[role] = true;
    }
  }

  async function refresh(): Promise<void> {
    await Promise.all([ask('stable'), ask('canary')]);
    const next = decideView(options.self, last.stable, last.canary);
    if (!next || JSON.stringify(next) === JSON.stringify(view)) return;
    view = next;
    wasLive.add(next.stable.id);
    if (next.canary) wasLive.add(next.canary.id);
    options.logger.info({ stable: next.stable.id, canary: next.canary?.id ?? null }, 'Release view');
    options.onChange?.(next);
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void refresh().finally(schedule), view ? RELEASE_REFRESH_MS : UNKNOWN_REFRESH_MS);
    timer.unref();
  };
  schedule();
  return {
    current: () => view,
    wasLive: (id) => wasLive.has(id),
    refresh,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
