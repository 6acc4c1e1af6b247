import type { Page } from '@playwright/test';

/**
 * Lighthouse's mobile preset as its applied throttling (`--throttling-method=devtools`) sets it:
 * slow 4G with its request latency and throughput factors, and a CPU four times slower.
 */
export const MOBILE_THROTTLING = {
  cpuSlowdown: 4,
  latencyMs: 150 * 3.75,
  downloadKbps: 1638.4 * 0.9,
  uploadKbps: 675 * 0.9,
} as const;

/** Slows `page`'s CPU and network as Lighthouse's mobile runs do, through the DevTools protocol. */
export async function throttle(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: MOBILE_THROTTLING.latencyMs,
    downloadThroughput: (MOBILE_THROTTLING.downloadKbps * 1024) / 8,
    uploadThroughput: (MOBILE_THROTTLING.uploadKbps * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE_THROTTLING.cpuSlowdown });
}
