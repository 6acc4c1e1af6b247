import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { startStack, type ComposeStack } from '../support/compose-stack';
import { tokenOf } from '../../../tools/telemetry-attack/requests.mjs';
import { meridianImage, type MeridianImage } from '../support/docker-image';

let image: MeridianImage;
let stack: ComposeStack;

beforeAll(async () => {
  image = await meridianImage();
  stack = await startStack(image);
});

afterAll(async () => {
  await stack?.down();
});

/** Polls `check` until it returns a value, or fails with the stack's logs. */
async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  try {
    return await vi.waitFor(
      async () => {
        const value = await check();
        if (value === undefined) throw new Error(`not yet: ${what}`);
        return value;
      },
      { timeout: timeoutMs, interval: 1000 },
    );
  } catch {
    throw new Error(`compose: ${what} within ${timeoutMs} ms; the stack's logs:\n${await stack.logs({ tail: 20 })}`);
  }
}

async function prometheus<T>(apiPath: string): Promise<T> {
  const body = (await (await fetch(`${stack.prometheusUrl}${apiPath}`)).json()) as { status: string; data: T };
  if (body.status !== 'success') throw new Error(`prometheus: ${apiPath} answered ${body.status}`);
  return body.data;
}

describe('the compose stack', () => {
  it('serves the site through the balancer from both replicas', async () => {
    const servedBy = new Set<string>();
    await eventually('the balancer did not send requests to both replicas', async () => {
      const response = await fetch(`${stack.balancerUrl}/`);
      const html = await response.text();
      if (response.status !== 200 || !html.includes('<html')) return undefined;
      servedBy.add(response.headers.get('x-served-by') ?? '');
      return servedBy.size === 2 ? true : undefined;
    });
    expect([...servedBy].sort()).toEqual(['app-1', 'app-2']);
  });

  it("has each replica count the reports of the other's pages: one token key for the stack", async () => {
    // Each page's report goes to the replica that did not answer the page.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const page = await fetch(`${stack.balancerUrl}/ja`, { headers: { 'Sec-Fetch-Dest': 'document' } });
      const token = tokenOf(page.headers.get('server-timing') ?? undefined);
      const servedBy = page.headers.get('x-served-by');
      let status = 0;
      await eventually(`no replica but ${servedBy} took a beacon`, async () => {
        const response = await fetch(`${stack.balancerUrl}/api/telemetry`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: stack.balancerUrl },
          body: JSON.stringify({ token, events: [{ type: 'web_vital', name: 'TTFB', value: 10, locale: 'ja', route: '/ja' }] }),
        });
        if (response.headers.get('x-served-by') === servedBy) return undefined;
        status = response.status;
        return true;
      });
      statuses.push(status);
    }
    expect(statuses).toEqual([204, 204, 204, 204]);
  });

  it('takes a replica out by its /readyz while it drains, and back once it restarts', async () => {
    // Counted, not sliced by offset: compose merges the balancer's stdout and
    // stderr out of order, so a new line can land before text logged earlier.
    const DOWN = /app-1 is DOWN, reason: Layer7 wrong status, code: 503/g;
    const UP = /app-1 is UP/g;
    const count = async (pattern: RegExp) => (await stack.logs({ services: ['balancer'] })).match(pattern)?.length ?? 0;
    const [downBefore, upBefore] = [await count(DOWN), await count(UP)];
    const moreThan = (pattern: RegExp, before: number) => async () => ((await count(pattern)) > before ? true : undefined);
    // SIGTERM to our entry, PID 1, as `docker stop` sends it, but with the restart policy still on.
    await stack.exec('app-1', ['sh', '-c', 'kill -TERM 1']);
    await eventually('the balancer did not take app-1 out for its /readyz', moreThan(DOWN, downBefore));
    const servedBy = new Set<string>();
    for (let i = 0; i < 6; i += 1) servedBy.add((await fetch(`${stack.balancerUrl}/readyz`)).headers.get('x-served-by') ?? '');
    expect([...servedBy]).toEqual(['app-2']);
    // haproxy marks a server UP again only after it went DOWN: one more UP is the way back.
    await eventually('app-1 did not come back after its restart', moreThan(UP, upBefore));
  });

  it('has Prometheus scrape both replicas’ metrics ports, with the image’s build id', async () => {
    type Targets = { activeTargets: { labels: { job: string; instance: string }; health: string }[] };
    const up = await eventually('Prometheus did not see both replicas up', async () => {
      const { activeTargets } = await prometheus<Targets>('/api/v1/targets');
      const meridian = activeTargets.filter((target) => target.labels.job === 'meridian');
      return meridian.length === 2 && meridian.every((target) => target.health === 'up') ? meridian : undefined;
    });
    expect(up.map((target) => target.labels.instance).sort()).toEqual(['app-1:9464', 'app-2:9464']);

    type Vector = { result: { metric: Record<string, string> }[] };
    const info = await prometheus<Vector>('/api/v1/query?query=meridian_build_info');
    expect(info.result.map((series) => series.metric.build_id)).toEqual([image.buildArgs.BUILD_ID, image.buildArgs.BUILD_ID]);
  });

  it('has Prometheus evaluate the Helm chart’s alert rules, mounted from their one file', async () => {
    const file = parse(readFileSync(path.join(ROOT, 'helm/meridian/files/prometheus-rules.yaml'), 'utf8')) as {
      groups: { name: string }[];
    };
    type Rules = { groups: { name: string; rules: { health: string }[] }[] };
    const groups = await eventually('Prometheus did not evaluate the rules', async () => {
      const { groups } = await prometheus<Rules>('/api/v1/rules');
      return groups.length > 0 && groups.every((group) => group.rules.every((rule) => rule.health === 'ok')) ? groups : undefined;
    });
    // Prometheus lists groups by file, then by name.
    expect(groups.map((group) => group.name)).toEqual(file.groups.map((group) => group.name).sort());
  });
});
