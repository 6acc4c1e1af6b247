// The rollout under load, once, for the test and for `npm run rollout:demo`:
// two app processes of build `from` behind haproxy, steady traffic and an open
// tab through it, and the processes replaced one by one with build `to`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureBrowser, ensureDebianPackages } from '../debian-packages.mjs';
import { openTab } from './browser-tab.mjs';
import { buildsSeenBetween } from './build-views.mjs';
import { DETECTION_MS } from './haproxy-config.mjs';
import { startLoad } from './load-generator.mjs';
import { startStack } from './stack.mjs';
import { watchRotation } from './watch-rotation.mjs';
import { createTimeline, witnessNewBuild } from './witnesses.mjs';

const RATE_PER_SECOND = 100;
const POLL_INTERVAL_MS = 1000;
/** Serving on after SIGTERM until haproxy has surely taken the process out, and a second more. */
const SHUTDOWN_DELAY_MS = DETECTION_MS + 1000;
const SHUTDOWN_TIMEOUT_MS = 5000;
/** Steady traffic before, between and after the replacements: a few scrapes and polls of each state. */
const SETTLE_MS = 3000;
/** Once the roll is over, the tab's next poll hears of the new build: five intervals leave room for jitter and a busy machine. */
const TAB_DETECTION_MS = 5 * POLL_INTERVAL_MS;

/** What the scenario drives, installed when missing (Debian packages). */
export function ensureRolloutTools() {
  ensureDebianPackages(['haproxy', 'prometheus']);
  ensureBrowser();
}

/**
 * @typedef {import('./app-slot.mjs').Build} Build
 * @typedef {'traffic-started' | 'tab-opened' | 'sigterm' | 'exited' | 'ready' | 'old-pods-gone' | 'rotation' | 'tab-detected' | 'tab-navigated' | 'tab-moved' | 'canary-step' | 'analysis'} EventKind
 * @typedef {{ at: number, kind: EventKind, label: string, slot?: string, status?: string, build?: string }} RolloutEvent
 * @typedef {(kind: EventKind, label: string, details?: Partial<RolloutEvent>) => void} Mark
 */

/**
 * What a rollout returns, here and on the cluster (cluster-scenario.mjs), and what report.mjs draws.
 * @typedef {object} RolloutResult
 * @property {{ from: string, to: string }} builds
 * @property {{ ratePerSecond: number, via?: string, description?: string, shutdownDelayMs?: number, detectionMs?: number }} settings
 * @property {Awaited<ReturnType<ReturnType<typeof startLoad>['stop']>>} traffic
 * @property {Record<string, number | null>} [exitCodes] the old processes' (haproxy)
 * @property {{ name: string, build: string, replicas: number }[]} [replicaSets] after the roll (Kubernetes)
 * @property {{ seenDuringRoll: Awaited<ReturnType<typeof buildsSeenBetween>>, runningAfter: Record<string, number>, buildUpdates: number, ruleGroups?: string[] }} prometheus
 * @property {Awaited<ReturnType<typeof import('./witnesses.mjs').witnessNewBuild>>['browser']} browser
 * @property {RolloutEvent[]} events
 */

/**
 * Each slot in turn: SIGTERM, wait for the exit (the whole drain), start `to`
 * on the same ports, wait until haproxy serves it, then a steady spell.
 * Resolves with each old process's exit code.
 * @param {Awaited<ReturnType<typeof startStack>>} stack
 * @param {Build} to
 * @param {Mark} mark
 */
async function replaceOneByOne({ slots, haproxy }, to, mark) {
  /** @type {Record<string, number | null>} */
  const exitCodes = {};
  for (const slot of slots) {
    mark('sigterm', `SIGTERM ${slot.name} (${slot.build()?.id})`, { slot: slot.name });
    exitCodes[slot.name] = await slot.stop();
    mark('exited', `${slot.name} exited ${exitCodes[slot.name]}`, { slot: slot.name });
    await slot.start(to);
    mark('ready', `${slot.name} ready on ${to.id}`, { slot: slot.name, build: to.id });
    await haproxy.waitUntilServing(slot.name);
    await sleep(SETTLE_MS);
  }
  return exitCodes;
}

/**
 * Runs the rollout from `from` to `to` and returns what every witness saw:
 * the load generator's per-second counts, Prometheus, the open tab, the old
 * processes' exit codes, and a timeline of events (ms since the first request).
 * @param {{ from: Build, to: Build, log?: (line: string) => void }} options
 */
export async function runRollout({ from, to, log = () => {} }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-rollout-'));
  const timeline = createTimeline(log);
  const { mark } = timeline;
  const appEnv = {
    BUILD_POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
    SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    LOG_LEVEL: 'warn',
  };
  /** @type {(() => Promise<unknown>)[]} */
  const cleanups = [];
  try {
    const stack = await startStack({ build: from, slotCount: 2, appEnv, dir });
    cleanups.push(stack.stop);
    const { haproxy, prometheus } = stack;
    const load = startLoad({ baseUrl: haproxy.url, ratePerSecond: RATE_PER_SECOND });
    cleanups.push(load.stop);
    timeline.origin = load.startedAt;
    mark('traffic-started', `${RATE_PER_SECOND} requests/s to ${stack.slots.length} processes of ${from.id}`);
    const rotation = watchRotation(haproxy, (slot, status) => mark('rotation', `haproxy: ${slot} ${status}`, { slot, status }));
    cleanups.push(rotation.stop);
    const tab = await openTab(`${haproxy.url}/`);
    cleanups.push(tab.close);
    mark('tab-opened', `tab opened on ${tab.firstBuild}`, { build: tab.firstBuild });
    await sleep(SETTLE_MS);

    const rollStartedAt = Date.now();
    const exitCodes = await replaceOneByOne(stack, to, mark);
    const rollEndedAt = Date.now();

    const after = await witnessNewBuild({ tab, prometheus, to: to.id, timeline, detectionMs: TAB_DETECTION_MS });
    await sleep(SETTLE_MS);

    const traffic = await load.stop();
    return {
      builds: { from: from.id, to: to.id },
      settings: { ratePerSecond: RATE_PER_SECOND, shutdownDelayMs: SHUTDOWN_DELAY_MS, detectionMs: DETECTION_MS },
      traffic,
      exitCodes,
      prometheus: {
        seenDuringRoll: await buildsSeenBetween(prometheus, rollStartedAt, rollEndedAt),
        runningAfter: after.runningAfter,
        buildUpdates: after.buildUpdates,
      },
      browser: after.browser,
      events: timeline.sorted(),
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => log(`cleanup failed: ${error}`));
    rmSync(dir, { recursive: true, force: true });
  }
}
