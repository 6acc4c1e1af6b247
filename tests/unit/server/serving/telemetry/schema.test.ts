import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { FETCH_FAILURE_KINDS } from '@/server/observability/metrics';
import { TELEMETRY_EVENT_TYPES, type TelemetryEvent } from '@/shared/telemetry-events';
import { telemetryBatchSchema, telemetryEventSchema } from '@/server/serving/telemetry/schema';

const parse = (events: unknown[]) => telemetryBatchSchema.safeParse({ events });
const parseOne = (event: Record<string, unknown>) => {
  const result = parse([event]);
  return result.success ? result.data.events[0] : undefined;
};
const vital = (fields: Record<string, unknown> = {}) => ({
  type: 'web_vital',
  name: 'LCP',
  value: 1200,
  locale: 'ja',
  route: '/ja',
  ...fields,
});

describe('the event types', () => {
  it('are exactly the client events the metrics count', () => {
    const types = telemetryEventSchema.options.map((option) => option.shape.type.value);
    expect(types).toEqual([...TELEMETRY_EVENT_TYPES]);
  });

  it('report fetch failures only with kinds the metrics know', () => {
    const manifest = telemetryEventSchema.options.find((option) => option.shape.type.value === 'manifest_fetch_failed');
    const kinds = manifest && 'kind' in manifest.shape ? manifest.shape.kind.options : [];
    expect(kinds.every((kind) => (FETCH_FAILURE_KINDS as readonly string[]).includes(kind))).toBe(true);
  });
});

describe('a valid batch', () => {
  it('accepts one of each event, optional fields left out', () => {
    const result = parse([
      { type: 'locale_load_failed', locale: 'zh-CN', namespace: 'home' },
      { type: 'manifest_fetch_failed', kind: 'latest' },
      { type: 'payload_fetch_failed' },
      { type: 'build_update_detected' },
      { type: 'chunk_reload' },
      { type: 'chunk_reload_blocked' },
      vital(),
    ]);
    expect(result.success).toBe(true);
  });

  it('keeps the optional fields', () => {
    expect(parseOne({ type: 'locale_load_failed', locale: 'en', namespace: 'common', cause: 'timeout' })).toEqual({
      type: 'locale_load_failed',
      locale: 'en',
      namespace: 'common',
      cause: 'timeout',
    });
    expect(parseOne({ type: 'payload_fetch_failed', buildId: 'b1', status: 0, path: '/ja' })).toEqual({
      type: 'payload_fetch_failed',
      buildId: 'b1',
      status: 0,
      path: '/ja',
    });
    expect(parseOne({ type: 'build_update_detected', from: 'a', to: 'b' })).toMatchObject({ from: 'a', to: 'b' });
  });

  it('strips unknown keys', () => {
    expect(parseOne({ type: 'chunk_reload', reason: 'stale', extra: 'x'.repeat(10_000) })).toEqual({
      type: 'chunk_reload',
      reason: 'stale',
    });
  });

  it('accepts 20 events and web vitals from 0 to an hour', () => {
    expect(parse(Array.from({ length: 20 }, () => ({ type: 'chunk_reload' }))).success).toBe(true);
    expect(parseOne(vital({ value: 0 }))).toBeDefined();
    expect(parseOne(vital({ name: 'CLS', value: 0.05 }))).toBeDefined();
    expect(parseOne(vital({ value: 3_600_000 }))).toBeDefined();
  });
});

describe('label values', () => {
  it.each([
    ['ja', 'ja'],
    ['zh-CN', 'zh-CN'],
    ['zh-cn', 'other'],
    ['fr', 'other'],
    ['', 'other'],
  ])('maps the locale %j to %j', (locale, label) => {
    expect(parseOne({ type: 'locale_load_failed', locale, namespace: 'home' })).toMatchObject({ locale: label });
    expect(parseOne(vital({ locale }))).toMatchObject({ locale: label });
  });

  it.each([
    ['language-switcher', 'language-switcher'],
    ['Home', 'other'],
    ['../../etc/passwd', 'other'],
  ])('maps the namespace %j to %j', (namespace, label) => {
    expect(parseOne({ type: 'locale_load_failed', locale: 'en', namespace })).toMatchObject({ namespace: label });
  });

  it.each([
    ['/', '/'],
    ['/ja', '/[locale]'],
    ['/zh-CN', '/[locale]'],
    ['/en', 'other'],
    ['/ja/about', 'other'],
    ['/healthz', 'other'],
    ['/_next/static/x.js', 'other'],
    ['not a path', 'other'],
  ])('maps the route %j to %j', (route, label) => {
    expect(parseOne(vital({ route }))).toMatchObject({ route: label });
  });
});

describe('an invalid batch', () => {
  it.each([
    ['no events key', {}],
    ['events not an array', { events: {} }],
    ['no events', { events: [] }],
    ['21 events', { events: Array.from({ length: 21 }, () => ({ type: 'chunk_reload' })) }],
    ['not an object', [{ type: 'chunk_reload' }]],
  ])('is refused: %s', (_, body) => {
    expect(telemetryBatchSchema.safeParse(body).success).toBe(false);
  });

  it.each<[string, Record<string, unknown>]>([
    ['an unknown type', { type: 'page_view' }],
    ['no type', { reason: 'x' }],
    ['a missing locale', { type: 'locale_load_failed', namespace: 'home' }],
    ['a missing namespace', { type: 'locale_load_failed', locale: 'en' }],
    ['a locale that is not a string', { type: 'locale_load_failed', locale: 1, namespace: 'home' }],
    ['a cause over 500 characters', { type: 'locale_load_failed', locale: 'en', namespace: 'home', cause: 'x'.repeat(501) }],
    ['a fetch kind of payload', { type: 'manifest_fetch_failed', kind: 'payload' }],
    ['no fetch kind', { type: 'manifest_fetch_failed' }],
    ['a status of 600', { type: 'payload_fetch_failed', status: 600 }],
    ['a negative status', { type: 'payload_fetch_failed', status: -1 }],
    ['a fractional status', { type: 'payload_fetch_failed', status: 200.5 }],
    ['a status as a string', { type: 'payload_fetch_failed', status: '404' }],
    ['a path over 200 characters', { type: 'payload_fetch_failed', path: `/${'x'.repeat(200)}` }],
    ['a build id over 200 characters', { type: 'build_update_detected', to: 'x'.repeat(201) }],
    ['a reason over 200 characters', { type: 'chunk_reload_blocked', reason: 'x'.repeat(201) }],
    ['an unknown vital', vital({ name: 'FID' })],
    ['a lowercase vital', vital({ name: 'lcp' })],
    ['a negative vital', vital({ value: -1 })],
    ['a vital over an hour', vital({ value: 3_600_001 })],
    ['a vital as a string', vital({ value: '1200' })],
    ['a route over 200 characters', vital({ route: `/${'x'.repeat(200)}` })],
    ['a vital without a route', vital({ route: undefined })],
    ['an id over 200 characters', vital({ id: 'x'.repeat(201) })],
  ])('is refused: %s', (_, event) => {
    expect(parse([event]).success).toBe(false);
  });

  it('is refused when one event of many is invalid', () => {
    expect(parse([{ type: 'chunk_reload' }, { type: 'nope' }]).success).toBe(false);
  });

  it('refuses values JSON cannot carry but a caller could pass', () => {
    expect(parse([vital({ value: Number.POSITIVE_INFINITY })]).success).toBe(false);
    expect(parse([vital({ value: Number.NaN })]).success).toBe(false);
  });
});

describe("the browser's side", () => {
  it('sends exactly what the schema accepts', () => {
    expectTypeOf<z.input<typeof telemetryEventSchema>>().toEqualTypeOf<TelemetryEvent>();
  });
});
