import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import nextConfig from '../../../next.config.js';
import { parseLatestBuild } from '@/freshness/build-poller';
import { ConfigError, readConfig } from '@/server/config';
import { BUILD_POLL_INTERVAL_BOUNDS_MS, POLL_INTERVAL_HEADER } from '@/shared/build-poll';
import { TELEMETRY_ENDPOINT, TELEMETRY_EVENT_TYPES } from '@/shared/telemetry-events';
import { VARY_BY_LANGUAGE, VARY_BY_LANGUAGE_HEADER } from '@/shared/vary';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SOURCES = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.tsx?$/.test(file))
  .map((file) => ({ file: `src/${file.split(path.sep).join('/')}`, text: readFileSync(path.join(ROOT, 'src', file), 'utf8') }));

/** Files under src/ other than `declaredIn` that spell `literal`. */
function copiesOf(literal: string | RegExp, declaredIn: string): string[] {
  const spells = (text: string) => (typeof literal === 'string' ? text.includes(literal) : literal.test(text));
  return SOURCES.filter(({ file, text }) => file !== declaredIn && spells(text)).map(({ file }) => file);
}

const quoted = (value: string) => `'${value}'`;
const eventNames = TELEMETRY_EVENT_TYPES.join('|');

describe('each contract is declared once, in src/shared, and imported', () => {
  it.each([
    ['the Vary list', VARY_BY_LANGUAGE_HEADER, 'src/shared/vary.ts'],
    ['the Vary list as an array', VARY_BY_LANGUAGE.map(quoted).join(', '), 'src/shared/vary.ts'],
    ['the telemetry endpoint', quoted(TELEMETRY_ENDPOINT), 'src/shared/telemetry-events.ts'],
    // Two event names side by side are the start of a list; a single name is a use the TelemetryEvent type checks.
    ['a list of telemetry event names', new RegExp(`'(?:${eventNames})',\\s*'(?:${eventNames})'`), 'src/shared/telemetry-events.ts'],
    // Header names are case-insensitive: a lower-case copy is a copy too.
    ['the poll interval header', new RegExp(quoted(POLL_INTERVAL_HEADER), 'i'), 'src/shared/build-poll.ts'],
    ['the greatest poll interval', /\b86_?400_?000\b/, 'src/shared/build-poll.ts'],
  ])('%s', (_name, literal, declaredIn) => {
    expect(copiesOf(literal, declaredIn)).toEqual([]);
  });

  it("next.config.js's root Vary, for Next's own server, is the same list", async () => {
    const rules = (await nextConfig.headers?.()) ?? [];
    const root = rules.find((rule) => rule.source === '/');
    expect(root?.headers).toEqual([{ key: 'Vary', value: VARY_BY_LANGUAGE_HEADER }]);
  });
});

describe('the poll interval bounds', () => {
  const { min, max } = BUILD_POLL_INTERVAL_BOUNDS_MS;

  it.each([
    [min, true],
    [max, true],
    [min - 1, false],
    [max + 1, false],
  ])('%d ms: the server accepts it as BUILD_POLL_INTERVAL_MS and a tab trusts it alike (%s)', (interval, within) => {
    const configured = () => readConfig({ BUILD_POLL_INTERVAL_MS: String(interval) });
    if (within) expect(configured().buildPollIntervalMs).toBe(interval);
    else expect(configured).toThrow(ConfigError);
    expect(parseLatestBuild({ id: 'build' }, String(interval)).pollIntervalMs).toBe(within ? interval : null);
  });
});
