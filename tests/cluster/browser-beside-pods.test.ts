import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { kubectl } from '../../tools/cluster/kubectl.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tools/debian-packages.mjs';
import { waitFor } from '../../tools/lib/wait.mjs';
import { applyAndWait, probePod } from './support/network-probes';

// Chromium fails the requests waiting for a connection (beyond its six per host) with
// net::ERR_NETWORK_CHANGED whenever an address comes or goes on the machine; a pod's
// interface used to bring an IPv6 link-local address, so a pod started or stopped on the
// node broke page loads under way in a browser beside it (a canary's visitors' tabs did).
const NAMESPACE = 'browser-beside-pods';
const FETCHES = 10;
const CHROMIUM_CONNECTIONS_PER_HOST = 6;
// An interface's link-local address comes once duplicate address detection is done, about a second after it is up.
const ADDRESS_SETTLED_MS = 3_000;

let browser: Browser;
const held: ServerResponse[] = [];
let holding = true;
const server = createServer((request, response) => {
  if (request.url?.startsWith('/held/')) {
    if (holding) held.push(response);
    else response.end('answered');
  } else response.setHeader('content-type', 'text/html').end('<title>beside the pods</title>');
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  await kubectl(['create', 'namespace', NAMESPACE]);
});

afterAll(async () => {
  await browser?.close();
  for (const response of held) response.end();
  server.close();
  await kubectl(['delete', 'namespace', NAMESPACE, '--ignore-not-found', '--timeout=120s']);
});

describe('a browser on the machine while pods come and go on the node', () => {
  test('its requests waiting for a connection are answered, none failed by a change of network', async () => {
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(`${request.url()} (${request.failure()?.errorText})`));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const answers = page.evaluate(
      (count) =>
        Promise.all(
          Array.from({ length: count }, (_, index) =>
            fetch(`/held/${index}`).then(
              (response) => response.text(),
              (error: Error) => `failed: ${error.message}`,
            ),
          ),
        ),
      FETCHES,
    );
    await waitFor(
      'the browser to hold every connection it may open',
      async () => {
        if (held.length < CHROMIUM_CONNECTIONS_PER_HOST) throw new Error(`${held.length} held`);
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );

    await applyAndWait([probePod(NAMESPACE, 'started')]);
    await new Promise((resolve) => setTimeout(resolve, ADDRESS_SETTLED_MS));
    await kubectl(['delete', 'pod', '-n', NAMESPACE, 'started', '--wait=true', '--timeout=60s']);
    await new Promise((resolve) => setTimeout(resolve, ADDRESS_SETTLED_MS));

    holding = false;
    for (const response of held.splice(0)) response.end('answered');
    expect(await answers).toEqual(Array(FETCHES).fill('answered'));
    expect(failed).toEqual([]);
  });
});
