import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestRoute } from '@/server/serving/routing/request-route';
import { PAGE_VIEW_TIMING, PAGE_VIEW_TOKEN_HEADER } from '@/shared/page-view-token';
import type { PageViewTokens } from './page-view-tokens';

/**
 * The page-view token of a page a browser loads, as a Server-Timing entry (read by the page
 * from its navigation timing: src/shared/telemetry-client.ts). Only page views the server
 * counts get one, so every token stands for a counted view.
 */
export function pageViewTiming(route: RequestRoute, tokens: PageViewTokens, buildId: string): string | null {
  if (!route.browserPageLoad || route.decision.kind !== 'serve') return null;
  return `${PAGE_VIEW_TIMING};desc="${tokens.issue(buildId, route.decision.locale)}"`;
}

/** On a poll of builds/latest.json that sends its token: the token renewed, so a tab left open keeps reporting. */
export function renewPageViewToken(req: IncomingMessage, res: ServerResponse, tokens: PageViewTokens): void {
  const sent = req.headers[PAGE_VIEW_TOKEN_HEADER.toLowerCase()];
  if (typeof sent !== 'string') return;
  const renewed = tokens.renew(sent);
  if (renewed) res.setHeader(PAGE_VIEW_TOKEN_HEADER, renewed);
}
