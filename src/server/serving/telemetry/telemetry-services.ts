import { randomBytes } from 'node:crypto';
import type { ServerConfig } from '@/server/config';
import { createBeaconRelay } from './beacon-relay';
import { createPageViewTokens } from './page-view-tokens';
import { createRateLimiter } from './rate-limit';
import { createReplayGuard } from './replay-guard';
import type { TelemetryServices } from './telemetry-endpoint';

/**
 * The browser reports' collaborators, made once: the per-address limit, the page-view tokens
 * under the release's keys (a key of this process alone when none is set: `ownKey` true), what
 * each page view reported already, and the relay to the pod that issued a token.
 */
export function createTelemetryServices(config: ServerConfig): TelemetryServices & { ownKey: boolean } {
  const keys = config.telemetryTokenKeys ?? [randomBytes(32).toString('base64url')];
  const podIp = config.podIp ?? '';
  return {
    limiter: createRateLimiter({ limit: config.telemetryRateLimitPerMinute, windowMs: 60_000 }),
    tokens: createPageViewTokens({ keys, ttlMs: config.telemetryTokenTtlMs, owner: podIp }),
    replays: createReplayGuard(),
    relay: createBeaconRelay({ keys, port: config.port }),
    podIp,
    siteOrigin: config.siteUrl ?? undefined,
    ownKey: config.telemetryTokenKeys === null,
  };
}
