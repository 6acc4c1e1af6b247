import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { CHART_DIR, helm, RELEASE } from '../support/chart';

/**
 * Hosts of URLs and e-mail addresses under names reserved for examples and placeholders
 * (RFC 2606, RFC 6761): a link to one opens nothing, so a default must never hold one.
 * Prose may still use them as examples (a values comment's `registry.example.com`).
 */
function placeholderHosts(text: string): string[] {
  const hosts = [...text.matchAll(/(?:https?:\/\/|@)([a-z0-9.-]+\.[a-z]+)/gi)].map((match) => match[1]!.toLowerCase());
  return hosts.filter((host) => /\.(example|invalid|test|localhost)$/.test(host) || /(^|\.)example\.(com|net|org)$/.test(host));
}

/** Every file the chart ships but its README, which is prose. */
const shippedFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? shippedFiles(path.join(dir, entry.name)) : entry.name === 'README.md' ? [] : [path.join(dir, entry.name)],
  );

describe('placeholder hosts', () => {
  it('are found in URLs and addresses, so the checks below can fail', () => {
    expect(placeholderHosts('home: https://git.example/meridian, dev@meridian.invalid, https://www.example.com/x')).toEqual([
      'git.example',
      'meridian.invalid',
      'www.example.com',
    ]);
    expect(placeholderHosts('https://github.com/acme/meridian and regex.test(value)')).toEqual([]);
  });

  it('are in none of the chart’s metadata and default values (comments aside)', () => {
    for (const file of ['Chart.yaml', 'values.yaml']) {
      const values = parse(readFileSync(path.join(CHART_DIR, file), 'utf8')) as unknown;

      expect(placeholderHosts(stringify(values)), file).toEqual([]);
    }
  });

  it('are in none of the files the chart embeds', () => {
    for (const file of shippedFiles(path.join(CHART_DIR, 'files'))) {
      expect(placeholderHosts(readFileSync(file, 'utf8')), file).toEqual([]);
    }
  });

  it('are in nothing the chart renders by default, monitoring on, nor in its notes', () => {
    const monitoring = ['--set', 'serviceMonitor.enabled=true,prometheusRule.enabled=true,grafanaDashboard.enabled=true'];
    for (const args of [[], monitoring]) {
      const result = helm(['install', RELEASE, CHART_DIR, '--dry-run=client', '--namespace', 'site', ...args]);

      expect(result.status, result.stderr).toBe(0);
      expect(placeholderHosts(result.stdout), args.join(' ')).toEqual([]);
    }
  });
});
