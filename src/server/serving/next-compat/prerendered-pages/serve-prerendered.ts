import type { IncomingMessage, ServerResponse } from 'node:http';
import { VARY_BY_LANGUAGE_HEADER } from '@/shared/vary-by-language';
import type { PrerenderedPage } from './prerendered-pages';
import { preferredCoding, type ContentCoding } from '@/server/serving/negotiation/negotiation';
import { evaluatePreconditions } from '@/server/serving/negotiation/preconditions';
import type { RequestRoute } from '@/server/serving/routing/request-route';
import { CONTENT_SECURITY_POLICY_HEADER } from '@/server/serving/edge/content-security-policy';
import { setHeaderList, type HeaderList } from '@/server/serving/header-list';
import { ROUTER_VARY } from '@/shared/router-headers';
import { answerPlainText } from '@/server/serving/plain-text';

/** Smallest first: what we send when the visitor likes several equally. */
const CODINGS: readonly ContentCoding[] = ['br', 'gzip', 'identity'];

const VARY = `${ROUTER_VARY}, Accept-Encoding`;
const VARY_WITH_LANGUAGE = `${VARY}, ${VARY_BY_LANGUAGE_HEADER}`;

/**
 * Answers a page load (`route.pageLoad`) of a prerendered page from memory, so no request reaches
 * React once the site is built. A 200 is written with one `writeHead` of
 * header lists built at start-up (`head`: the request's own and the security
 * headers). Returns false for anything else, having set nothing.
 */
export function servePrerendered(
  req: IncomingMessage,
  res: ServerResponse,
  route: RequestRoute,
  pages: ReadonlyMap<string, PrerenderedPage>,
  head: HeaderList,
): boolean {
  if (route.decision.kind !== 'serve') return false;
  const page = pages.get(route.decision.internalPathname);
  if (!page) return false;
  const vary = route.decision.variesByLanguage ? VARY_WITH_LANGUAGE : VARY;
  // The representation is chosen first: preconditions are evaluated against the selected one (RFC 9110 §13.2.1).
  const coding = preferredCoding(req, CODINGS);
  if (!coding) {
    // Even identity was refused (`identity;q=0`, `*;q=0`): RFC 9110 §12.5.3 allows a 406.
    setHeaderList(res, head);
    res.setHeader('Vary', vary);
    answerPlainText(req, res, 406, 'Not Acceptable: br, gzip or identity');
    return true;
  }
  const precondition = evaluatePreconditions(req, { etag: page.etags[coding], lastModified: page.lastModified });
  if (precondition === 'failed') {
    setHeaderList(res, head);
    res.setHeader('Vary', vary);
    answerPlainText(req, res, 412, 'Precondition Failed');
    return true;
  }
  if (precondition === 'not-modified') {
    setHeaderList(res, head);
    res.setHeader(CONTENT_SECURITY_POLICY_HEADER, page.policy);
    setHeaderList(res, page.cacheHeaders[coding]);
    res.setHeader('Vary', vary);
    res.statusCode = 304;
    res.end();
    return true;
  }
  const headers = head.concat(page.bodyHeaders[coding], 'Vary', vary);
  // `head` carries the policy of answers without scripts: this page's own takes its place.
  const policy = headers.indexOf(CONTENT_SECURITY_POLICY_HEADER);
  if (policy !== -1) headers[policy + 1] = page.policy;
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : page.bodies[coding]);
  return true;
}
