import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Metrics, PeerFileKind, PeerForwardResult } from '@/server/observability/metrics';
import { answerPlainText } from '@/server/serving/plain-text';
import type { ReleaseWatch } from './release-view';
import { askService } from '@/server/serving/service-request';

/** Marks a request one pod sent another: it is answered from memory or not at all, never sent on (no loops). */
export const FORWARDED_HEADER = 'x-meridian-forwarded';
/** On the answer to a forwarded request: the build of the pod that answered it. */
export const ANSWERING_BUILD_HEADER = 'x-meridian-build';
/** What a forwarded answer may depend on, and what it says of the file. */
const REQUEST_HEADERS = ['accept-encoding', 'if-none-match', 'if-modified-since'];
const RESPONSE_HEADERS = ['content-type', 'content-encoding', 'content-length', 'etag', 'last-modified', 'cache-control', 'vary'];
/** A forward that no pod of the build has begun to answer by then is given up on. */
const TIMEOUT_MS = 8000;
/**
 * One pod that has not begun to answer by then is left for another: a file comes from memory
 * in milliseconds, so that pod is stuck, or gone while kube-proxy's rules still send
 * connections to its address (they lag an endpoint's removal by seconds on a busy node), where
 * a connection is never opened or ends unreachable only after seconds.
 */
const ATTEMPT_TIMEOUT_MS = 1000;
/**
 * Between two tries: a miss from a pod of another build (the Service not yet moved to the
 * canary's pods, which Argo does only once they are available, while the release's own
 * Service already sends them visitors), a refused connection or a pod that did not answer.
 */
const RETRY_DELAY_MS = 250;
/** Forwards under way at once, at most: beyond, a miss is answered 404 at once. */
const MAX_IN_FLIGHT = 64;

export interface PeerFiles {
  /** Whether a file this server does not have belongs to another build (`ofBuild`), maybe live, and may be asked of a peer. */
  mayForward(req: IncomingMessage, ofBuild: string | null): ofBuild is string;
  /** Answers with the peer's file; a miss or a failure is this server's own plain 404, as without peers. */
  forward(req: IncomingMessage, res: ServerResponse, kind: PeerFileKind, ofBuild: string): Promise<void>;
}

/** The build an asset URL names with Next's deployment id (`?dpl=<id>`), or null. */
export function deploymentIdOf(url: string | undefined): string | null {
  const query = url?.indexOf('?') ?? -1;
  return query === -1 ? null : new URLSearchParams(url?.slice(query + 1)).get('dpl');
}

/**
 * During a canary release, the other live build's hashed assets and route manifest:
 * a page of one build whose request the Service sent to a pod of the other gets its
 * file from a pod that has it. The stable build's pods ask the canary Service, every
 * other pod the stable Service, each time on a new connection (service-request.ts); a
 * miss from a pod of another build than the file's is asked again until a pod of that
 * build answers or the time is up. One hop only, bounded in time and number, counted in
 * `meridian_peer_forwards_total{kind,result}`.
 */
export function createPeerFiles(options: {
  selfId: string;
  services: { stable: string; canary: string };
  release: Pick<ReleaseWatch, 'current' | 'wasLive'>;
  metrics: Metrics;
}): PeerFiles {
  let inFlight = 0;

  /**
   * Whether `build` may be live. Once this pod sees a canary, the live builds are known. Without
   * one, a build it saw live before was promoted away or aborted; any other may be a canary its
   * view (5 s late at most) has not caught yet.
   */
  function mayBeLive(build: string): boolean {
    const view = options.release.current();
    if (!view || build === view.stable.id || build === view.canary?.id) return true;
    return !view.canary && !options.release.wasLive(build);
  }

  function peerOrigin(): string {
    return options.release.current()?.stable.id === options.selfId ? options.services.canary : options.services.stable;
  }

  async function send(req: IncomingMessage, res: ServerResponse, kind: PeerFileKind, ofBuild: string): Promise<void> {
    const headers: Record<string, string> = { [FORWARDED_HEADER]: '1' };
    for (const name of REQUEST_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const method = req.method === 'HEAD' ? 'HEAD' : 'GET';
    const count = (result: PeerForwardResult) => options.metrics.peerForwards.inc({ kind, result });
    let visitorGone = false;
    res.once('close', () => (visitorGone = true));
    const deadline = Date.now() + TIMEOUT_MS;
    const mayTryAgain = () => !visitorGone && deadline - Date.now() > RETRY_DELAY_MS;

    for (;;) {
      let answer: IncomingMessage;
      try {
        answer = await askService(new URL(req.url ?? '/', peerOrigin()), {
          method,
          headers,
          timeoutMs: Math.min(ATTEMPT_TIMEOUT_MS, deadline - Date.now()),
        });
      } catch {
        if (mayTryAgain()) {
          await sleep(RETRY_DELAY_MS);
          continue;
        }
        count('failed');
        return miss(req, res);
      }
      const status = answer.statusCode ?? 0;
      if (status === 200 || status === 304) {
        // A file of the same path is the same file, whichever build's pod has it: its name is its hash.
        count('served');
        res.statusCode = status;
        for (const name of RESPONSE_HEADERS) {
          const value = answer.headers[name];
          if (value !== undefined) res.setHeader(name, value);
        }
        return pipeline(answer, res).catch(() => void res.destroy());
      }
      answer.resume();
      if (answer.headers[ANSWERING_BUILD_HEADER] !== ofBuild && mayTryAgain()) {
        count('misrouted');
        await sleep(RETRY_DELAY_MS);
        continue;
      }
      count(status === 404 ? 'missing' : 'failed');
      return miss(req, res);
    }
  }

  return {
    mayForward: (req, ofBuild): ofBuild is string =>
      ofBuild !== null && ofBuild !== options.selfId && req.headers[FORWARDED_HEADER] === undefined && mayBeLive(ofBuild),
    async forward(req, res, kind, ofBuild) {
      if (inFlight >= MAX_IN_FLIGHT) {
        options.metrics.peerForwards.inc({ kind, result: 'busy' });
        return answerPlainText(req, res, 404, 'Not Found');
      }
      inFlight += 1;
      try {
        await send(req, res, kind, ofBuild);
      } finally {
        inFlight -= 1;
      }
    },
  };
}

/** The plain 404 a file of no live build gets, unless the visitor left meanwhile. */
function miss(req: IncomingMessage, res: ServerResponse): void {
  if (res.headersSent || res.destroyed) return;
  answerPlainText(req, res, 404, 'Not Found');
}
