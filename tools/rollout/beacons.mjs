// The beacons a page sends, as the rollout's and the canary's browsers watch them.

/** Where pages send their beacons (TELEMETRY_ENDPOINT in src/shared/telemetry-events.ts). */
export const TELEMETRY_PATH = '/api/telemetry';

/** Whether `url` is the beacons' endpoint. @param {URL} url */
export const isBeaconUrl = (url) => url.pathname === TELEMETRY_PATH;

/**
 * The event types of a beacon's body (a body that is not a batch: none).
 * @param {import('@playwright/test').Request} request
 * @returns {string[]}
 */
export function beaconEventTypes(request) {
  try {
    const body = /** @type {{ events?: { type?: unknown }[] }} */ (JSON.parse(request.postDataBuffer()?.toString('utf8') ?? ''));
    return body.events?.map((event) => String(event.type)) ?? [];
  } catch {
    return [];
  }
}

/**
 * Routes the page's beacons through Playwright, handing each to `sent` first: an observer
 * alone is not given a sendBeacon's body (a Blob), a route is.
 * @param {import('@playwright/test').Page} page
 * @param {(request: import('@playwright/test').Request) => void} [sent]
 */
export function routeBeacons(page, sent = () => {}) {
  return page.route(isBeaconUrl, (route) => {
    sent(route.request());
    return route.continue();
  });
}
