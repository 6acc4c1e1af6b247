import { createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { askService } from '@/server/serving/builds/service-request';
import { TELEMETRY_ENDPOINT } from '@/shared/telemetry-events';

/** Marks a beacon one pod relays to another: an HMAC of its body under the release's key. */
export const RELAY_HEADER = 'x-meridian-relayed-beacon';
/** A beacon is small and its owner a pod away: past this, the owner is taken for busy. */
const RELAY_TIMEOUT_MS = 2000;
/** Relays under way at once, at most: past them a flood of other pods' beacons is shed, not queued. */
const MAX_IN_FLIGHT = 256;
const MAX_ANSWER_BYTES = 512;

/**
 * What became of a relayed beacon: the owner's answer; the owner gone (its address refuses
 * connections: the pod was replaced), so the receiving pod counts it; or the owner there but
 * not answering in time, so the report is shed rather than counted twice.
 */
export type RelayOutcome = { kind: 'answered'; status: number; body: Buffer } | { kind: 'gone' } | { kind: 'busy' };

/** What a connection to an address no pod holds any more ends in. */
const GONE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

export interface BeaconRelay {
  /** Whether `header` is a relaying pod's mark of `body`. */
  isRelayed(header: string | string[] | undefined, body: Buffer): boolean;
  /** `body` sent to the pod at `owner`, and what became of it. */
  relay(owner: string, body: Buffer): Promise<RelayOutcome>;
  /**
   * The same, in the background, `onOutcome` told what became of it; false (and nothing sent)
   * while as many relays as allowed are under way.
   */
  relayLater(owner: string, body: Buffer, onOutcome: (outcome: RelayOutcome) => void): boolean;
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
export function createBeaconRelay({ keys, port }: { keys: readonly string[]; port: number }): BeaconRelay {
  const macOf = (key: string, body: Buffer) => createHmac('sha256', key).update('relay\n').update(body).digest();
  const signingKey = keys[0] ?? '';
  let inFlight = 0;

  const relay = {
    isRelayed(header, body) {
      if (typeof header !== 'string') return false;
      const given = Buffer.from(header, 'base64url');
      return keys.some((key) => {
        const expected = macOf(key, body);
        return given.length === expected.length && timingSafeEqual(given, expected);
      });
    },
    async relay(owner, body) {
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
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of answer as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
        }
        const status = answer.statusCode ?? 0;
        return status > 0 && status < 500 ? { kind: 'answered', status, body: Buffer.concat(chunks) } : { kind: 'busy' };
      } catch (error) {
        return GONE.has((error as NodeJS.ErrnoException).code ?? '') ? { kind: 'gone' } : { kind: 'busy' };
      }
    },
  } satisfies Omit<BeaconRelay, 'relayLater'>;
  return {
    ...relay,
    relayLater(owner, body, onOutcome) {
      if (inFlight >= MAX_IN_FLIGHT) return false;
      inFlight += 1;
      void relay
        .relay(owner, body)
        .then(onOutcome)
        .finally(() => (inFlight -= 1));
      return true;
    },
  };
}
