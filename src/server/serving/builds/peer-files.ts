import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { pipeline } from 'node:stream/promises';
import type { Metrics, PeerFileKind, PeerForwardResult } from '@/server/observability/metrics';
import { answerPlainText } from '@/server/serving/plain-text';
import type { ReleaseView } from './release-view';

/** Marks a request one pod sent another: it is answered from memory or not at all, never sent on (no loops). */
export const FORWARDED_HEADER = 'x-meridian-forwarded';
/** What a forwarded answer may depend on, and what it says of the file. */
const REQUEST_HEADERS = ['accept-encoding', 'if-none-match', 'if-modified-since'];
const RESPONSE_HEADERS = ['content-type', 'content-encoding', 'content-length', 'etag', 'last-modified', 'cache-control', 'vary'];
/** A peer that has not begun to answer by then is given up on. */
const TIMEOUT_MS = 5000;
/** Forwards under way at once, at most: beyond, a miss is answered 404 at once. */
const MAX_IN_FLIGHT = 64;

export interface PeerFiles {
  /** Whether a file this server does not have belongs to another build (`ofBuild`) and may be asked of a peer. */
  mayForward(req: IncomingMessage, ofBuild: string | null): boolean;
  /** Answers with the peer's file; a miss or a failure is this server's own plain 404, as without peers. */
  forward(req: IncomingMessage, res: ServerResponse, kind: PeerFileKind): Promise<void>;
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
 * other pod the stable Service; one hop only, bounded in time and number, counted in
 * `meridian_peer_forwards_total{kind,result}`.
 */
export function createPeerFiles(options: {
  selfId: string;
  services: { stable: string; canary: string };
  view(): ReleaseView | null;
  metrics: Metrics;
}): PeerFiles {
  const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };
  let inFlight = 0;

  function peerOrigin(): string {
    return options.view()?.stable.id === options.selfId ? options.services.canary : options.services.stable;
  }

  function send(req: IncomingMessage, res: ServerResponse, kind: PeerFileKind): Promise<void> {
    const target = new URL(req.url ?? '/', peerOrigin());
    const headers: Record<string, string> = { [FORWARDED_HEADER]: '1' };
    for (const name of REQUEST_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const secure = target.protocol === 'https:';
    const count = (result: PeerForwardResult) => options.metrics.peerForwards.inc({ kind, result });
    return new Promise<void>((resolve) => {
      let answered = false;
      const upstream = (secure ? httpsRequest : httpRequest)(
        target,
        { method: req.method === 'HEAD' ? 'HEAD' : 'GET', headers, agent: agents[secure ? 'https:' : 'http:'], timeout: TIMEOUT_MS },
        (answer) => {
          answered = true;
          const status = answer.statusCode ?? 0;
          if (status !== 200 && status !== 304) {
            answer.resume();
            count(status === 404 ? 'missing' : 'failed');
            answerPlainText(req, res, 404, 'Not Found');
            return resolve();
          }
          count('served');
          res.statusCode = status;
          for (const name of RESPONSE_HEADERS) {
            const value = answer.headers[name];
            if (value !== undefined) res.setHeader(name, value);
          }
          pipeline(answer, res).then(resolve, () => {
            res.destroy();
            resolve();
          });
        },
      );
      upstream.on('timeout', () => upstream.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
      upstream.on('error', () => {
        // Once an answer arrived, its pipeline settles the request.
        if (answered) return;
        count('failed');
        if (res.headersSent) res.destroy();
        else answerPlainText(req, res, 404, 'Not Found');
        resolve();
      });
      upstream.end();
    });
  }

  return {
    mayForward: (req, ofBuild) => ofBuild !== null && ofBuild !== options.selfId && req.headers[FORWARDED_HEADER] === undefined,
    async forward(req, res, kind) {
      if (inFlight >= MAX_IN_FLIGHT) {
        options.metrics.peerForwards.inc({ kind, result: 'busy' });
        return answerPlainText(req, res, 404, 'Not Found');
      }
      inFlight += 1;
      try {
        await send(req, res, kind);
      } finally {
        inFlight -= 1;
      }
    },
  };
}
