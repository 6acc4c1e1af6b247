import { describe, expect, it } from 'vitest';
import { decideRoute } from '@/i18n/routing';
import { methodLabel, reportedRouteLabel, routeLabel, ROUTES, statusLabel } from '@/server/observability/route-label';

const decisionOf = (pathname: string, acceptLanguage: string | null = null) =>
  decideRoute({ pathname, cookie: undefined, acceptLanguage, isDocument: true });

describe('routeLabel', () => {
  it.each([
    ['/', 200, '/'],
    ['/ja', 200, '/[locale]'],
    ['/zh-CN', 200, '/[locale]'],
    ['/', 307, 'redirect'],
    ['/en', 308, 'redirect'],
    ['/zh-cn', 308, 'redirect'],
    ['/nope', 404, 'not_found'],
    ['/ja/nope', 404, 'not_found'],
    ['/healthz', 200, '/healthz'],
    ['/readyz', 503, '/readyz'],
    ['/metrics', 404, 'not_found'],
    ['/api/telemetry', 204, '/api/telemetry'],
    ['/api/telemetry', 429, '/api/telemetry'],
    ['/builds/latest.json', 200, '/builds/latest.json'],
    ['/builds/meta/abc.json', 200, '/builds/meta/[id]'],
    ['/_next/static/chunks/a.js', 200, '/_next/static'],
    ['/_next/static/chunks/missing.js', 404, 'not_found'],
    ['/_next/image', 200, '/_next/image'],
    ['/_next/data/x', 200, '/_next/other'],
    ['/robots.txt', 200, 'public_file'],
    ['/ja/e2e-fixtures/crash', 500, 'other'],
  ])('%s answered %i counts as %s', (path, status, route) => {
    expect(routeLabel(path, decisionOf(path), status)).toBe(route);
  });

  it('reads the request’s own decision: the root redirected by language counts as a redirect', () => {
    expect(routeLabel('/', decisionOf('/', 'ja'), 307)).toBe('redirect');
  });

  it.each([
    ['/', '/'],
    ['/ja', '/[locale]'],
    ['/ja/x', 'other'],
    ['/en', 'redirect'],
    ['/robots.txt', 'public_file'],
  ])('a path a browser reports, %s, counts as %s', (path, route) => {
    expect(reportedRouteLabel(path)).toBe(route);
  });

  it('never returns a raw path', () => {
    for (let i = 0; i < 500; i += 1) {
      const random = `/${Math.random().toString(36).slice(2)}/${i}`;
      for (const status of [200, 301, 404, 500]) expect(ROUTES).toContain(routeLabel(random, decisionOf(random), status));
    }
  });
});

describe('methodLabel and statusLabel', () => {
  it('bound their values', () => {
    expect(methodLabel('GET')).toBe('GET');
    expect(methodLabel('PURGE')).toBe('other');
    expect(methodLabel('TRACE')).toBe('TRACE');
    expect(methodLabel('CONNECT')).toBe('CONNECT');
    expect(methodLabel('TRACK')).toBe('other');
    expect(methodLabel(undefined)).toBe('other');
    expect(statusLabel(404)).toBe('404');
    expect(statusLabel(999)).toBe('other');
    expect(statusLabel(Number.NaN)).toBe('other');
  });
});
