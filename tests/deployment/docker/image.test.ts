import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getContainerRuntimeClient, ImageName, type ContainerRuntimeClient } from 'testcontainers';
import { NODE_VERSION } from '../../../tools/node-runtime.mjs';
import { meridianImage, type MeridianImage } from '../support/docker-image';
import { METRICS_PORT, PUBLIC_PORT, startMeridian, type RunningMeridian } from '../support/meridian-container';

let image: MeridianImage;
/** The image's configuration; dockerode's type lacks StopSignal. */
type ImageConfig = Awaited<ReturnType<ContainerRuntimeClient['image']['inspect']>>['Config'] & { StopSignal?: string };

let config: ImageConfig;
let app: RunningMeridian;

beforeAll(async () => {
  image = await meridianImage();
  const client = await getContainerRuntimeClient();
  config = (await client.image.inspect(ImageName.fromString(image.name))).Config;
  app = await startMeridian(image.name);
});

afterAll(async () => {
  await app?.remove();
});

async function exec(command: string[]) {
  return app.container.exec(command);
}

describe('the image', () => {
  it('carries the OCI labels of its build arguments', () => {
    const { NODE_IMAGE, VERSION, REVISION, SOURCE, CREATED } = image.buildArgs;
    expect(config.Labels).toMatchObject({
      'org.opencontainers.image.base.name': NODE_IMAGE,
      'org.opencontainers.image.version': VERSION,
      'org.opencontainers.image.revision': REVISION,
      'org.opencontainers.image.source': SOURCE,
      'org.opencontainers.image.created': CREATED,
    });
  });

  it('exports the BUILD_ID build argument as meridian_build_info, with the same revision and version, on the pinned Node of its base', async () => {
    const metrics = await (await fetch(`${app.metricsUrl}/metrics`)).text();
    const { BUILD_ID, REVISION, VERSION } = image.buildArgs;
    const info = metrics.split('\n').find((line) => line.startsWith('meridian_build_info{'));
    expect(info).toContain(`build_id="${BUILD_ID}"`);
    expect(info).toContain(`revision="${REVISION}"`);
    expect(info).toContain(`version="${VERSION}"`);
    expect(info).toContain(`node_version="v${NODE_VERSION}"`);
  });

  it('is that build id everywhere: builds/latest.json, its route manifest and the pages (data-dpl-id)', async () => {
    const { BUILD_ID } = image.buildArgs;
    expect(await (await fetch(`${app.url}/builds/latest.json?1`)).json()).toMatchObject({ id: BUILD_ID });
    expect((await fetch(`${app.url}/builds/meta/${BUILD_ID}.json`)).status).toBe(200);
    expect(await (await fetch(`${app.url}/ja`)).text()).toContain(`data-dpl-id="${BUILD_ID}"`);
  });

  it('runs as a non-root numeric user', async () => {
    expect(config.User).toBe('10001:10001');
    expect((await exec(['id', '-u'])).output.trim()).toBe('10001');
  });

  it('exposes the public and the metrics port and answers /readyz and /metrics on them', async () => {
    expect(Object.keys(config.ExposedPorts ?? {}).sort()).toEqual([`${PUBLIC_PORT}/tcp`, `${METRICS_PORT}/tcp`]);
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    const page = await fetch(`${app.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
    const metrics = await fetch(`${app.metricsUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('http_server_request_duration_seconds');
  });

  it('runs our entry as PID 1 with SIGTERM as its stop signal: no shell in between', async () => {
    expect(config.StopSignal).toBe('SIGTERM');
    const cmdline = (await exec(['cat', '/proc/1/cmdline'])).output;
    expect(cmdline.split('\0').filter(Boolean)).toEqual(['node', '--max-semi-space-size=2', 'meridian-server.cjs']);
  });

  it('reports healthy through a HEALTHCHECK that needs no curl', async () => {
    expect(config.Healthcheck?.Test?.slice(0, 2)).toEqual(['CMD', 'node']);
    expect((await exec(['sh', '-c', 'command -v curl'])).exitCode).not.toBe(0);
    expect((await app.inspect()).State.Health?.Status).toBe('healthy');
  });

  it('runs with a read-only root file system, writing only to /tmp and Next’s cache', async () => {
    expect((await app.inspect()).HostConfig.ReadonlyRootfs).toBe(true);
    const denied = await exec(['touch', '/app/probe']);
    expect(denied.exitCode).not.toBe(0);
    expect(denied.output).toContain('Read-only file system');
    expect((await exec(['touch', '/tmp/probe'])).exitCode).toBe(0);
    expect((await exec(['touch', '/app/.next/cache/probe'])).exitCode).toBe(0);
    // The image optimiser's path once reached Next, which created its cache folder (an unwritable
    // one killed the process); the site has no optimised image, so it is the not-found answer now.
    const optimised = await fetch(`${app.url}/_next/image?url=%2Ffavicon.svg&w=64&q=75`);
    expect(optimised.status).toBe(404);
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
  });

  it('is one image for every site: under two SITE_URLs, each container links its pages, sitemap and robots.txt to its own origin', async () => {
    const sites = ['https://staging.meridian.example', 'https://www.meridian.example'];
    const apps = await Promise.all(sites.map((site) => startMeridian(image.name, { SITE_URL: site })));
    try {
      for (const [index, site] of sites.entries()) {
        const url = apps[index]?.url;
        const page = await (await fetch(`${url}/ja`)).text();
        expect(page).toContain(`<link rel="canonical" href="${site}/ja"/>`);
        for (const [hreflang, path] of [
          ['en', '/'],
          ['zh-CN', '/zh-CN'],
          ['ja', '/ja'],
          ['x-default', '/'],
        ]) {
          expect(page).toContain(`<link rel="alternate" hrefLang="${hreflang}" href="${site}${path}"/>`);
        }
        expect(page).not.toContain('.invalid');
        expect(await (await fetch(`${url}/sitemap.xml`)).text()).toContain(`<loc>${site}/ja</loc>`);
        expect(await (await fetch(`${url}/robots.txt`)).text()).toContain(`Sitemap: ${site}/sitemap.xml`);
      }
    } finally {
      await Promise.all(apps.map((app) => app.remove()));
    }
  });
});
