import { createServer, type Server } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { TEST_BUILDS } from '../../../tools/lib/builds.mjs';
import { waitFor } from '../../../tools/lib/wait.mjs';
import { request } from '../support/http';
import { freePort, startServer, type RunningServer } from '../support/server-process';
import { switchableService, type SwitchableService } from '../../support/release-services';

// A pod of a canary release that cannot yet reach the stable Service (the first pods of a
// release, all starting at once) does not know which builds are live: it is not ready, so no
// visitor is sent to it, where builds/latest.json could only answer 503.
let server: RunningServer | undefined;
let services: SwitchableService[] = [];
/** Where the stand-ins lead at first: a port that takes each connection and closes it. */
let nowhere: Server | undefined;

afterAll(async () => {
  await server?.stop();
  await Promise.all(services.map((service) => service.close()));
  nowhere?.close();
});

it('is not ready until the stable Service answers, then ready within seconds', async () => {
  nowhere = createServer((socket) => socket.destroy());
  const nowherePort = await freePort();
  await new Promise<void>((resolve) => nowhere?.listen(nowherePort, '127.0.0.1', resolve));
  services = [await switchableService(nowherePort), await switchableService(nowherePort)];
  const port = await freePort();
  const [stable, canary] = services as [SwitchableService, SwitchableService];
  server = await startServer(
    { STABLE_SERVICE_URL: stable.url, CANARY_SERVICE_URL: canary.url },
    { entry: TEST_BUILDS.a.entry, port, waitReady: false },
  );
  const url = server.url;
  await waitFor('Next to be prepared', async () => expect((await request(`${url}/readyz`)).body.trim()).toBe('live builds unknown'), {
    timeoutMs: 45_000,
  });
  expect((await request(`${url}/readyz`)).status).toBe(503);
  expect((await request(`${url}/builds/latest.json`)).status).toBe(503);

  // The Services now reach this pod, as they do once its ReplicaSet is selected.
  stable.pointAt(port);
  canary.pointAt(port);
  await waitFor('the pod to be ready', async () => expect((await request(`${url}/readyz`)).status).toBe(200), { timeoutMs: 5000 });
  expect(JSON.parse((await request(`${url}/builds/latest.json`)).body)).toEqual({ id: TEST_BUILDS.a.id, timestamp: expect.any(Number) });
});
