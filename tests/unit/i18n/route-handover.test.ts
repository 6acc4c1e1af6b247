import { NextRequest } from 'next/server';
import { afterEach, describe, expect, it } from 'vitest';
import { localeProxy } from '@/i18n/proxy';
import { handedOverDecision, installRouteHandoverKey, ROUTE_HANDOVER_HEADER, routeHandover } from '@/i18n/route-handover';
import { decideRoute, type RoutingDecision } from '@/i18n/routing';
import { REQUESTED_PATH_HEADER } from '@/shared/request-headers';

const KEY = 'test-key';
/** A decision the rules would never make for /ja: seeing it applied proves the proxy did not decide again. */
const HANDED: RoutingDecision = { kind: 'redirect', status: 307, pathname: '/zh-CN', variesByLanguage: false };

function proxied(path: string, headers: Record<string, string> = {}) {
  return localeProxy(new NextRequest(`http://localhost${path}`, { headers }));
}

afterEach(() => installRouteHandoverKey(''));

describe('the routing decision handed from the entry to the proxy', () => {
  it('is applied as it is, when it carries this process’s key and was made for the same path', () => {
    installRouteHandoverKey(KEY);
    const response = proxied('/ja', { [ROUTE_HANDOVER_HEADER]: routeHandover(KEY, '/ja', HANDED) });
    expect(response.status).toBe(307);
    expect(new URL(response.headers.get('location') ?? '').pathname).toBe('/zh-CN');
  });

  it.each([
    ['no key was installed (next dev, Next’s own server)', '', KEY, '/ja'],
    ['another key', KEY, 'forged', '/ja'],
    ['another path', KEY, KEY, '/ja/x'],
  ])('is ignored when %s: the proxy decides', (_, installed, used, madeFor) => {
    installRouteHandoverKey(installed);
    const response = proxied('/ja', { [ROUTE_HANDOVER_HEADER]: routeHandover(used, madeFor, HANDED) });
    expect(response.status).toBe(200);
  });

  it.each(['', 'garbage', `${KEY}`, `${KEY} %2Fja`, `${KEY} %2Fja %ZZ`, `${KEY} %2Fja ${encodeURIComponent('{"kind":"elsewhere"}')}`])(
    'is ignored when malformed: %j',
    (header) => {
      installRouteHandoverKey(KEY);
      expect(handedOverDecision(header, '/ja')).toBeUndefined();
    },
  );

  it('round-trips every kind of decision, paths with any character included', () => {
    installRouteHandoverKey(KEY);
    for (const pathname of ['/', '/ja', '/en/x', '/JA/ü %20/x', '/a b']) {
      const decision = decideRoute({ pathname, cookie: 'ja', acceptLanguage: 'zh', isDocument: true });
      expect(handedOverDecision(routeHandover(KEY, pathname, decision), pathname)).toEqual(decision);
    }
  });

  it('never reaches the page: the proxy drops it from the request it forwards', () => {
    installRouteHandoverKey(KEY);
    const decision = decideRoute({ pathname: '/x', cookie: undefined, acceptLanguage: null, isDocument: true });
    const response = proxied('/x', { [ROUTE_HANDOVER_HEADER]: routeHandover(KEY, '/x', decision) });
    expect(response.headers.get('x-middleware-rewrite')).toMatch(/\/en\/x$/);
    const forwarded = (response.headers.get('x-middleware-override-headers') ?? '').split(',');
    expect(forwarded).toContain(REQUESTED_PATH_HEADER);
    expect(forwarded).not.toContain(ROUTE_HANDOVER_HEADER);
  });
});
