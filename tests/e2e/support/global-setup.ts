import { freePort } from '../../../scripts/lib/ports.mjs';
import { ensureBuild, E2E_BUILD_ENV } from '../../../scripts/lib/build.mjs';
import { startApp } from '../../../scripts/lib/app-server.mjs';
import { ensureBrowser } from '../../../scripts/lib/system-deps.mjs';

/** Builds once (cached by source hash), starts the production server, and hands its URL to the tests. */
export default async function globalSetup() {
  ensureBrowser();
  ensureBuild(E2E_BUILD_ENV);
  const app = await startApp({ port: await freePort() });
  process.env.MERIDIAN_E2E_URL = app.url;
  return async () => {
    await app.stop();
  };
}
