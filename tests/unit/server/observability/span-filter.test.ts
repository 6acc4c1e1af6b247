import { describe, expect, it } from 'vitest';
import { keepSpan } from '@/server/observability/span-filter';

const span = (scope: string, name: string) => ({ name, instrumentationScope: { name: scope } });

describe('keepSpan', () => {
  it('keeps every span of ours', () => {
    expect(keepSpan(span('meridian-server', 'GET not_found'))).toBe(true);
  });

  it.each(['GET', 'GET /_not-found', 'HEAD /[locale]', 'middleware GET', 'render route (app) /_not-found'])('keeps Next span %s', (name) =>
    expect(keepSpan(span('next.js', name))).toBe(true),
  );

  it.each([
    'resolve segment modules',
    'load route module',
    'build component tree',
    'start response',
    'NextNodeServer.clientComponentLoading',
  ])('drops Next span %s', (name) => expect(keepSpan(span('next.js', name))).toBe(false));
});
