import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, propagation } from '@opentelemetry/api';
import { routeHandover, ROUTE_HANDOVER_HEADER } from '@/i18n/route-handover';
import { REQUESTED_PATH_HEADER } from '@/shared/request-headers';
import { VARY_BY_LANGUAGE } from '@/shared/vary-by-language';
import { CONTENT_SECURITY_POLICY_HEADER, contentSecurityPolicy, nonceSource } from '@/server/serving/edge/content-security-policy';
import { dropUntrustedForwarding, type ProxyTrust } from '@/server/serving/edge/client-address';
import { varyOn } from '@/server/serving/negotiation/vary';
import type { RequestRoute } from '@/server/serving/routing/request-route';

/**
 * Where Next renders: src/server/rendering/renderer.ts makes one, which serving only calls
 * (rendering depends on serving, never the other way).
 */
export interface Renderer {
  /** Has the renderer answer `req`, within the limits; a 503 with Retry-After beyond them. */
  render(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/**
 * What Next gets, and how: the request as Next should see it (forwarding
 * headers only from trusted peers; no `Range`, whose malformed forms Next's file
 * server answered with a 500, while a server may always ignore it; a HEAD as
 * the GET it stands for, so Next writes the same headers, compression
 * included, and Node drops the body), the routing decision already made (marked with this process's `routeHandoverKey`,
 * see src/i18n/route-handover.ts), the request's span as its `traceparent` (Next's spans in
 * the renderer's process hang below it), and the root's `Vary` kept whatever Next writes.
 * Next itself runs in the renderer's process (src/server/rendering/).
 */
export function handOverToNext(
  req: IncomingMessage,
  res: ServerResponse,
  route: RequestRoute,
  renderer: Renderer,
  trust: ProxyTrust,
  routeHandoverKey: string,
  pageScriptHashes: readonly string[],
): Promise<void> {
  // The root's answer depends on the language cookie and Accept-Language (see src/i18n/routing.ts).
  if (route.pathname === '/') varyOn(res, VARY_BY_LANGUAGE);
  dropUntrustedForwarding(req, trust);
  delete req.headers.range;
  delete req.headers['if-range'];
  if (req.method === 'HEAD') req.method = 'GET';
  req.headers[ROUTE_HANDOVER_HEADER] = routeHandover(routeHandoverKey, route.pathname, route.decision);
  req.headers[REQUESTED_PATH_HEADER] = route.pathname;
  const policy = contentSecurityPolicy([nonceSource(), ...pageScriptHashes]);
  req.headers['content-security-policy'] = policy;
  delete req.headers['content-security-policy-report-only'];
  res.setHeader(CONTENT_SECURITY_POLICY_HEADER, policy);
  propagation.inject(context.active(), req.headers);
  return renderer.render(req, res);
}
