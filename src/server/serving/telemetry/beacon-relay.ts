import { createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { finished } from 'node:stream/promises';
import { askService, NEVER_CONNECTED } from '@/server/serving/service-request';
import { TELEMETRY_ENDPOINT } from '@/shared/telemetry-events';

/** Marks a beacon one pod relays to another: an HMAC of its body under the release's key. */
export const RELAY_HEADER = 'x-meridian-relayed-beacon';
/** The owner's answer while it shuts down: it did not count the report (telemetry-endpoint.ts). */
export const OWNER_LEAVING_STATUS = 410;
/** A beacon is small and its owner a pod away: past this, the owner is taken for busy. */
const RELAY_TIMEOUT_MS = 2000;
/** Relays under way at once, at most: past them a flood of other pods' beacons is shed, not queued. */
const MAX_IN_FLIGHT = 256;

/**
 * What became of a relayed beacon (the label of `meridian_telemetry_relays_total`): the owner
 * answered; the owner gone (its address refuses connections: the pod was replaced) or leaving
 * (shutting down, it answered without counting), so the receiving pod counts it; or the owner
 * there but not answering in time, so the report is shed rather than counted twice.
 */
export type RelayOutcome = 'relayed' | 'owner_gone' | 'owner_leaving' | 'owner_busy';

/**
 * What a connection to an address no pod holds any more ends in: refused, unreachable, or
 * never opened in time. In each the owner got nothing, so the beacon cannot count twice.
 */
const GONE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', NEVER_CONNECTED]);

export interface BeaconRelay {
  /** Whether `header` is a relaying pod's mark of `body`. */
  isRelayed(header: string | string[] | undefined, body: Buffer): boolean;
  /**
   * `body` sent to the pod at `owner` in the background, `onOutcome` told what became of it
   * (a throw of it goes to `onFailure`); false, and nothing sent, while as many relays as
   * allowed are under way.
   */
  relayLater(owner: string, body: Buffer, onOutcome: (outcome: RelayOutcome) => void, onFailure: (error: unknown) => void): boolean;
}

/**
 * Each page view's reports counted by one pod, the one that issued its token (its `owner`):
 * a pod's memory of what was reported (replay-guard.ts) is its own, so a replay sent to
 * every pod would otherwise count once on each. A pod receiving a beacon of another pod's
 * token relays it there (on the port the pods share), in the background: the browser never
 * waits for it, and the pod's answers stay as fast as they were. The owner trusts the relay's
 * checks of origin and rate, and checks the token and replays itself. An owner gone (a pod
 * replaced) leaves the receiving pod to count it; a slow one, to shed it.
 */
export function createBeaconRelay({
  keys,
  port,
  maxInFlight = MAX_IN_FLIGHT,
}: {
  keys: readonly string[];
  port: number;
  maxInFlight?: number;
}): BeaconRelay {
  const macOf = (key: string, body: Buffer) => createHmac('sha256', key).update('relay\n').update(body).digest();
  const signingKey = keys[0] ?? '';
  let inFlight = 0;

  /** Never rejects: every failure is an outcome. */
  async function relay(owner: string, body: Buffer): Promise<RelayOutcome> {
    const host = isIP(owner) === 6 ? `[${owner}]` : owner;
    try {
      const answer = await askService(new URL(`http://${host}:${port}${TELEMETRY_ENDPOINT}`), {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(body.length),
          [RELAY_HEADER]: macOf(signingKey, body).toString('base64url'),
        },
        body,
        timeoutMs: RELAY_TIMEOUT_MS,
        signal: AbortSignal.timeout(2 * RELAY_TIMEOUT_MS),
      });
      // Nobody reads the owner's answer (the browser had its 202): only its status tells.
      answer.resume();
      await finished(answer);
      const status = answer.statusCode ?? 0;
      if (status === OWNER_LEAVING_STATUS) return 'owner_leaving';
      return status > 0 && status < 500 ? 'relayed' : 'owner_busy';
    } catch (error) {
      return GONE.has((error as NodeJS.ErrnoException).code ?? '') ? 'owner_gone' : 'owner_busy';
    }
  }

  return {
    isRelayed(header, body) {
      if (typeof header !== 'string') return false;
      const given = Buffer.from(header, 'base64url');
      return keys.some((key) => {
        const expected = macOf(key, body);
        return given.length === expected.length && timingSafeEqual(given, expected);
      });
    },
    relayLater(owner, body, onOutcome, onFailure) {
      if (inFlight >= maxInFlight) return false;
      inFlight += 1;
      void relay(owner, body)
        .then(onOutcome)
        .catch(onFailure)
        .finally(() => (inFlight -= 1));
      return true;
    },
  };
}
