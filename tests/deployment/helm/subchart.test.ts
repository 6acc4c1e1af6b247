import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { CHART_DIR, helm, render, renderError } from '../support/chart';
import { podSpecOf, testPodOf } from '../support/workload';

const chartVersion = (parse(readFileSync(path.join(CHART_DIR, 'Chart.yaml'), 'utf8')) as { version: string }).version;

/**
 * An umbrella chart as a platform team writes one: this chart as a dependency from a local
 * path, switched by `condition: meridian.enabled`, with the pull secrets in `global` as
 * strings (the Bitnami form) and one as a reference.
 */
function umbrellaChart(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-umbrella-'));
  writeFileSync(
    path.join(dir, 'Chart.yaml'),
    stringify({
      apiVersion: 'v2',
      name: 'storefront',
      version: '1.0.0',
      dependencies: [{ name: 'meridian', version: chartVersion, repository: `file://${CHART_DIR}`, condition: 'meridian.enabled' }],
    }),
  );
  writeFileSync(
    path.join(dir, 'values.yaml'),
    stringify({ global: { imagePullSecrets: ['platform-registry', { name: 'mirror-registry' }] }, meridian: { enabled: true } }),
  );
  mkdirSync(path.join(dir, 'templates'));
  return dir;
}

describe('the chart as a dependency of an umbrella chart', () => {
  let umbrella: string;

  beforeAll(() => {
    umbrella = umbrellaChart();
    const built = helm(['dependency', 'build', umbrella]);
    expect(built.status, built.stdout + built.stderr).toBe(0);
  });
  afterAll(() => rmSync(umbrella, { recursive: true, force: true }));

  it('renders with the condition on, the global pull secrets of both forms on the pods', () => {
    const objects = render({}, { chartDir: umbrella, release: 'shop', namespace: 'store' });

    expect(objects.map((object) => object.kind)).toContain('Deployment');
    expect(podSpecOf(objects).imagePullSecrets).toEqual([{ name: 'platform-registry' }, { name: 'mirror-registry' }]);
  });

  it('leaves the chart out with the condition off', () => {
    const objects = render({ meridian: { enabled: false } }, { chartDir: umbrella, release: 'shop', namespace: 'store' });

    expect(objects).toEqual([]);
  });

  it('passes helm lint, strict, with the condition on and off', () => {
    for (const enabled of ['true', 'false']) {
      const result = helm(['lint', umbrella, '--strict', '--set', `meridian.enabled=${enabled}`]);

      expect(result.stdout + result.stderr, enabled).toContain('1 chart(s) linted, 0 chart(s) failed');
    }
  });

  it('refuses enabled: "yes", which is not a boolean', () => {
    expect(renderError({ meridian: { enabled: 'yes' } }, { chartDir: umbrella, release: 'shop', namespace: 'store' })).toContain(
      "meridian:\n- at '/enabled': got string, want boolean",
    );
  });
});

describe('enabled and global.imagePullSecrets on their own', () => {
  it('accepts enabled: true and refuses the string "yes", naming the key', () => {
    expect(() => render({ enabled: true })).not.toThrow();
    expect(renderError({ enabled: 'yes' })).toContain("at '/enabled': got string, want boolean");
  });

  it('refuses to render with enabled: false, which only a parent chart’s condition can act on', () => {
    expect(renderError({ enabled: false })).toContain('condition: meridian.enabled');
  });

  it('takes pull secrets as names and as references, global ones first, each once, on the web and test pods', () => {
    const objects = render({
      global: { imagePullSecrets: ['shared', { name: 'mirror' }] },
      imagePullSecrets: [{ name: 'own' }, 'shared'],
    });
    const expected = [{ name: 'shared' }, { name: 'mirror' }, { name: 'own' }];

    expect(podSpecOf(objects).imagePullSecrets).toEqual(expected);
    expect(testPodOf(objects).spec?.imagePullSecrets).toEqual(expected);
  });

  it('refuses an empty name and a reference without one', () => {
    expect(renderError({ global: { imagePullSecrets: [''] } })).toContain("at '/global/imagePullSecrets/0'");
    expect(renderError({ imagePullSecrets: [{ secret: 'x' }] })).toContain("at '/imagePullSecrets/0'");
  });
});
