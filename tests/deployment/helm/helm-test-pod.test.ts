import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../../../tools/lib/command.mjs';
import { render } from '../support/chart';
import { testPodOf } from '../support/workload';

/** A stand-in for the Service: /readyz answers `readyStatus`, /builds/latest.json the given build. */
async function fakeSite(readyStatus: number, buildId: string, canary?: string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    const json = (body: unknown) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/readyz') response.writeHead(readyStatus).end(readyStatus === 200 ? 'ready' : 'draining');
    else if (url.pathname === '/builds/latest.json') json({ id: buildId, timestamp: 1, ...(canary ? { canary } : {}) });
    else if (url.pathname === '/builds/current.json') json({ id: canary ?? buildId, timestamp: 1 });
    else response.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Runs the test pod's container command with node, as the kubelet would, against `siteUrl`. */
async function runTestPod(siteUrl: string, values: Record<string, unknown> = {}, serviceUrls: Record<string, string> = {}) {
  const container = testPodOf(render(values)).spec!.containers[0]!;
  const env = Object.fromEntries((container.env ?? []).map(({ name, value }) => [name, value ?? '']));
  const [command, ...args] = [...container.command!, ...container.args!];
  expect(command).toBe('node');
  // Only the pod's own variables (the script reads SITE_URL and EXPECTED_BUILD_ID); NODE_ENV as the app image sets it.
  const { exitCode, stdout, stderr } = await run(process.execPath, args, {
    env: { ...env, NODE_ENV: 'production', SITE_URL: siteUrl, ...serviceUrls },
    inheritEnv: false,
    check: false,
  });
  return { code: exitCode, output: stdout + stderr };
}

describe('the helm test pod', () => {
  let site: Server | undefined;
  afterEach(() => site?.close());

  it('is a helm test hook that reaches the Service by name and port, with the app image', () => {
    const pod = testPodOf(render({ image: { tag: 'b7' } }));

    expect(pod.metadata?.annotations?.['helm.sh/hook']).toBe('test');
    expect(pod.spec?.restartPolicy).toBe('Never');
    expect(pod.spec?.containers[0]?.image).toBe('meridian:b7');
    expect(pod.spec?.containers[0]?.env).toContainEqual({ name: 'SITE_URL', value: 'http://web-meridian:80' });
  });

  it('requests and limits every resource a ResourceQuota may count, ephemeral storage included', () => {
    const resources = testPodOf(render()).spec?.containers[0]?.resources;

    expect(Object.keys(resources?.requests ?? {}).sort()).toEqual(['cpu', 'ephemeral-storage', 'memory']);
    expect(Object.keys(resources?.limits ?? {}).sort()).toEqual(['ephemeral-storage', 'memory']);
  });

  it.each([
    {
      when: 'passes when /readyz answers 200 and /builds/latest.json serves the image tag',
      ready: 200,
      served: 'b7',
      values: {},
      says: 'serves build b7',
      code: 0,
    },
    { when: 'fails while /readyz answers 503', ready: 503, served: 'b7', values: {}, says: 'GET /readyz answered 503', code: 1 },
    {
      when: 'fails when the Service still serves another build',
      ready: 200,
      served: 'b6',
      values: {},
      says: 'serves build b6, expected b7',
      code: 1,
    },
    {
      when: 'accepts any build id when told not to expect the image tag',
      ready: 200,
      served: 'locally-built',
      values: { helmTest: { expectImageTagAsBuildId: false } },
      says: 'serves build locally-built',
      code: 0,
    },
  ])('$when', async ({ ready, served, values, says, code }) => {
    const fake = await fakeSite(ready, served);
    site = fake.server;

    const result = await runTestPod(fake.url, { image: { tag: 'b7' }, ...values });

    expect(result.output).toContain(says);
    expect(result.code).toBe(code);
  });

  it("waits for a Service that gives no answer yet (a new pod's network being set up by the policy engine), then passes", async () => {
    const fake = await fakeSite(200, 'b7');
    site = fake.server;
    fake.server.close();
    await once(fake.server, 'close');
    setTimeout(() => fake.server.listen(Number(new URL(fake.url).port), '127.0.0.1'), 3000);

    const result = await runTestPod(fake.url, { image: { tag: 'b7' } });

    expect(result.output).toMatch(/waiting for the network: GET \/readyz: ECONNREFUSED/);
    expect(result.output).toContain('serves build b7');
    expect(result.code).toBe(0);
  });

  it('during a canary release, passes once the canary Service serves the image tag and the site names it as the canary', async () => {
    const fake = await fakeSite(200, 'b6', 'b7');
    site = fake.server;
    const values = {
      image: { tag: 'b7' },
      rollout: { strategy: 'canary', canary: { analysis: { prometheusAddress: 'http://prometheus:9090' } } },
    };

    const result = await runTestPod(fake.url, values, { CANARY_SITE_URL: fake.url });

    expect(result.output).toContain('/builds/current.json serves build b7');
    expect(result.output).toContain('serves build b6 and the canary b7');
    expect(result.code).toBe(0);
  });

  it('opts out of mesh sidecar injection (a sidecar would keep the pod running), is deleted when it passes, and has a deadline', () => {
    const pod = testPodOf(render());

    expect(pod.metadata?.labels?.['sidecar.istio.io/inject']).toBe('false');
    expect(pod.metadata?.annotations).toMatchObject({
      'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
      'sidecar.istio.io/inject': 'false',
      'linkerd.io/inject': 'disabled',
    });
    expect(pod.spec?.activeDeadlineSeconds).toBeGreaterThan(0);
  });

  it('is left out with helmTest.enabled false', () => {
    expect(render({ helmTest: { enabled: false } }).map((object) => object.kind)).not.toContain('Pod');
  });
});
