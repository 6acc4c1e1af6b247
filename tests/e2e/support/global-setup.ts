import { freePort } from '../../../tools/lib/ports.mjs';
import { ensureTestBuilds } from '../../../tools/lib/builds.mjs';
import { startApp } from '../../../tools/lib/app-server.mjs';
import { ensureBrowser } from '../../../tools/debian-packages.mjs';

/**
 * Builds once (cached by source hash; the second build, for rollouts, too),
 * starts the production server, and hands its URLs to the tests.
 */
export default async function globalSetup() {
  ensureBrowser();
  ensureTestBuilds();
  const metricsPort = await freePort();
  // The specs stand in for a proxy on loopback (X-Forwarded-Proto: https for the Secure cookie).
  // Every spec's browser is one address, 127.0.0.1: the suite sends about 70 beacons in its busiest
  // minute, over the default 60 meant for one visitor, and a refused beacon is a report never counted.
  const app = await startApp({
    port: await freePort(),
    env: { METRICS_PORT: String(metricsPort), TRUST_PROXY: 'loopback', TELEMETRY_RATE_LIMIT_PER_MINUTE: '100000' },
  });
  process.env.MERIDIAN_E2E_URL = app.url;
  process.env.MERIDIAN_E2E_METRICS_URL = `http://127.0.0.1:${metricsPort}/metrics`;
  return async () => {
    await app.stop();
  };
}
