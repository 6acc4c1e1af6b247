// Performance benchmark: throughput (wrk), first-visit JS bytes (Chromium), Lighthouse
// mobile scores, the overhead of our entry against Next's own server.js (wrk, plus the
// memory growth of our entry) for the production build, and the Docker image (its size
// above the Node base, and docker run to a ready /readyz). A report, not a test: a missed
// target still exits 0; a crash (tools missing, server down, a stage throwing) exits 1.
// Env: BENCH_DURATION_S (wrk seconds per target/run, default 10), BENCH_WARMUP_S (default 2),
// BENCH_ROUNDS (alternating wrk rounds of the throughput stage, default 2), BENCH_REBUILD=1
// (rebuild unless .next is a production build of the current sources; by default an existing
// build is reused).
// BENCH_ONLY: a comma-separated list of the stages to run, for quick iteration, e.g.
// BENCH_ONLY=server-overhead; stages: throughput, ceiling (/ja against a bare node:http
// server and Next's server.js; BENCH_CEILING_ROUNDS, default 3), mixed-load (RSS, peak RSS and
// V8 heap through BENCH_MIXED_LOAD_S, default 180, of 60 % pages (/ and the build's page
// routes, /en's 308 included) and 40 % random 404s, half compressed), request-cost (every kind
// of request a visitor can send against a page, in BENCH_COST_ROUNDS alternating rounds,
// default 2, then a flood of the most expensive for BENCH_FLOOD_S, default 180), and the page stages,
// each against the floor (a hello world with the same Next settings, tools/bench/floor.mjs)
// in the same run: js (JS by the load event, 300 ms after it and within 6 s), lighthouse
// (mobile, applied throttling on /, /ja and /zh-CN in BENCH_LIGHTHOUSE_RUNS rounds, default 5,
// each followed by the pages' static twins, tools/bench/static-twin.mjs, and the floor; then
// rounds of the pages alone until each has BENCH_CLS_RUNS runs, default 20, for its layout
// stability; simulated throttling for reference, the 404 page too, BENCH_LIGHTHOUSE_SIMULATED_RUNS
// rounds, default 3), trace (unthrottled Chromium traces: the main thread's work before the
// largest paint, the static twins' too, and what the CJK typography adds to it on /ja and
// /zh-CN, BENCH_TRACE_ROUNDS, default 5), html (each page's raw HTML and what it holds);
// then server-overhead (it includes the memory test), image. Chromium and Lighthouse are only
// checked when a page stage runs. A partial run writes bench-results/summary-<stages>.json, so
// the full report in bench-results/summary.json is kept.
import path from 'node:path';
import { ROOT, startApp } from '../tools/lib/app-server.mjs';
import { measureCeiling } from '../tools/bench/ceiling.mjs';
import { measureMixedLoad } from '../tools/bench/mixed-load.mjs';
import { measureRequestCost } from '../tools/bench/request-cost.mjs';
import { measureImage } from '../tools/bench/image.mjs';
import { ensureFloorBuild, startFloorServer } from '../tools/bench/floor.mjs';
import { startTwinServer } from '../tools/bench/static-twin.mjs';
import { measureJsAgainstFloor } from '../tools/bench/js-bytes.mjs';
import { measureLighthouse } from '../tools/bench/lighthouse.mjs';
import { measurePageHtml, readPageHtml } from '../tools/bench/page-html.mjs';
import { measurePageTraces, measureTypographyCost } from '../tools/bench/page-trace.mjs';
import { killBenchServers } from '../tools/bench/bench-servers.mjs';
import { measureServerMemory } from '../tools/bench/server-memory.mjs';
import { measureServerOverhead } from '../tools/bench/server-overhead.mjs';
import { buildRows, printTable, writeSummary } from '../tools/bench/summary.mjs';
import { measureThroughput } from '../tools/bench/throughput.mjs';
import { ensureBuild, ensureTools } from '../tools/bench/tools.mjs';
import { envNumber, freePort, heading, killChildren, log } from '../tools/bench/util.mjs';

const RESULTS_DIR = path.join(ROOT, 'bench-results');
const STAGES = ['throughput', 'ceiling', 'mixed-load', 'request-cost', 'js', 'lighthouse', 'trace', 'html', 'server-overhead', 'image'];
/** The stages that load pages in a browser, each beside the floor. */
const PAGE_STAGES = ['js', 'lighthouse', 'trace', 'html'];
/** The pages issue 23 measures; the 404 joins the simulated Lighthouse runs for its audits. */
const PAGES = [
  { id: 'root', path: '/' },
  { id: 'ja', path: '/ja' },
  { id: 'zh-CN', path: '/zh-CN' },
];
/** The stages BENCH_ONLY selects (all when unset); null for a full run. */
function selectedStages() {
  const raw = (process.env.BENCH_ONLY ?? '').trim();
  if (!raw) return null;
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !STAGES.includes(name));
  if (unknown.length || !names.length) {
    throw new Error(`BENCH_ONLY=${JSON.stringify(raw)}: expected a comma-separated list of ${STAGES.join(', ')}`);
  }
  return new Set(names);
}

async function main() {
  const durationS = Math.max(1, Math.round(envNumber('BENCH_DURATION_S', 10)));
  const warmupS = Math.max(1, Math.round(envNumber('BENCH_WARMUP_S', 2)));
  const rounds = Math.max(1, Math.round(envNumber('BENCH_ROUNDS', 2)));
  const ceilingRounds = Math.max(1, Math.round(envNumber('BENCH_CEILING_ROUNDS', 3)));
  const mixedLoadS = Math.max(10, Math.round(envNumber('BENCH_MIXED_LOAD_S', 180)));
  const costRounds = Math.max(1, Math.round(envNumber('BENCH_COST_ROUNDS', 2)));
  const floodS = Math.max(10, Math.round(envNumber('BENCH_FLOOD_S', 180)));
  const lighthouseRuns = Math.max(1, Math.round(envNumber('BENCH_LIGHTHOUSE_RUNS', 5)));
  const clsRuns = Math.max(lighthouseRuns, Math.round(envNumber('BENCH_CLS_RUNS', 20)));
  const simulatedRuns = Math.max(1, Math.round(envNumber('BENCH_LIGHTHOUSE_SIMULATED_RUNS', 3)));
  const traceRounds = Math.max(1, Math.round(envNumber('BENCH_TRACE_ROUNDS', 5)));
  const only = selectedStages();
  const runs = (/** @type {string} */ name) => !only || only.has(name);
  log(`Meridian benchmark: wrk duration ${durationS} s per target (set BENCH_DURATION_S to change), ${rounds} rounds.`);
  if (only) log(`BENCH_ONLY: running ${[...only].join(', ')}; skipping ${STAGES.filter((s) => !runs(s)).join(', ') || 'nothing'}.`);

  const pageStages = PAGE_STAGES.some(runs);
  heading('Tools');
  ensureTools({ browser: pageStages });
  const build = ensureBuild();
  if (pageStages) ensureFloorBuild();

  const port = await freePort();
  /** @type {Awaited<ReturnType<typeof startApp>> | null} */
  let app = null;
  /** @type {Awaited<ReturnType<typeof startFloorServer>> | null} */
  let floor = null;
  /** @type {Awaited<ReturnType<typeof startTwinServer>> | null} */
  let twin = null;
  const stopApp = async () => {
    const running = [app, floor, twin];
    app = null;
    floor = null;
    twin = null;
    for (const server of running) await server?.stop();
  };
  let interrupted = false;
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      interrupted = true;
      log(`\n${signal}: stopping wrk and the app server`);
      killChildren();
      killBenchServers();
      stopApp().finally(() => process.exit(130));
    });
  }
  // Last resort (e.g. chrome-launcher's own SIGINT handler exits the process): stop() signals synchronously.
  process.once('exit', () => {
    app?.stop();
    floor?.stop();
    twin?.stop();
    killBenchServers();
  });

  /** @type {import('../tools/bench/summary.mjs').BenchResults} */
  const results = {
    throughput: null,
    ceiling: null,
    mixedLoad: null,
    requestCost: null,
    js: null,
    lighthouseApplied: null,
    lighthouseSimulated: null,
    trace: null,
    html: null,
    serverOverhead: null,
    serverMemory: null,
    image: null,
  };
  /** @type {{ stage: string, message: string }[]} */
  const errors = [];
  /**
   * Runs one stage into `results[key]`; a stage that throws is logged and leaves it null.
   * @template {keyof typeof results} K
   * @param {K} key
   * @param {string} name
   * @param {() => Promise<(typeof results)[K]>} fn
   */
  const stage = async (key, name, fn) => {
    if (interrupted) return;
    try {
      results[key] = await fn();
    } catch (error) {
      if (interrupted) return;
      errors.push({ stage: name, message: error instanceof Error ? error.message : String(error) });
      log(`\nERROR in ${name}: ${(error instanceof Error && error.stack) || error}`);
      if (app) log(`App server output (last 2000 chars):\n${app.output().slice(-2000)}`);
    }
  };
  try {
    if (runs('throughput') || pageStages) {
      heading('App server');
      // A metrics port of its own: another server on this machine may hold the default.
      app = await startApp({ port, env: { METRICS_PORT: String(await freePort()) } });
      const { url } = app;
      log(`Started the app server (tools/lib/app-server.mjs) at ${url}`);
      if (runs('throughput')) await stage('throughput', 'throughput', () => measureThroughput(url, { durationS, warmupS, rounds }));
      if (pageStages) {
        floor = await startFloorServer({ port: await freePort() });
        log(`Started the floor (tools/bench/floor.mjs) at ${floor.url}`);
        const floorUrl = floor.url;
        const pages = PAGES.map((page) => ({ id: page.id, url: url + page.path }));
        if (runs('lighthouse') || runs('trace')) {
          twin = await startTwinServer({ appUrl: url, pages: PAGES, port: await freePort() });
          log(`Started the static twin (tools/bench/static-twin.mjs) at ${twin.url}`);
        }
        const twins = twin?.pages ?? [];
        if (runs('html')) {
          await stage('html', 'raw HTML', async () => {
            const measured = await measurePageHtml(pages);
            return { pages: measured, floor: readPageHtml(await (await fetch(floorUrl)).text()) };
          });
        }
        if (runs('js')) await stage('js', 'first-visit JS', () => measureJsAgainstFloor({ url: `${url}/`, floorUrl }));
        if (runs('trace')) {
          await stage('trace', 'traces', async () => ({
            ...(await measurePageTraces({ pages, twins, floorUrl, rounds: traceRounds })),
            typography: await measureTypographyCost({ pages: pages.filter((page) => page.id !== 'root'), rounds: traceRounds }),
          }));
        }
        if (runs('lighthouse')) {
          await stage('lighthouseApplied', 'lighthouse (applied throttling)', () =>
            measureLighthouse({
              pages,
              twins,
              floorUrl,
              rounds: lighthouseRuns,
              stabilityRuns: clsRuns,
              throttlingMethod: 'devtools',
              resultsDir: RESULTS_DIR,
            }),
          );
          await stage('lighthouseSimulated', 'lighthouse (simulated throttling)', () =>
            measureLighthouse({
              pages: [...pages, { id: 'not-found', url: `${url}/no-such-page` }],
              floorUrl,
              rounds: simulatedRuns,
              throttlingMethod: 'simulate',
              resultsDir: RESULTS_DIR,
            }),
          );
        }
      }
    }
  } finally {
    await stopApp();
  }
  // With the app server stopped: these stages start (and stop) their own servers.
  if (runs('ceiling')) await stage('ceiling', 'ceiling', () => measureCeiling({ durationS, warmupS, rounds: ceilingRounds }));
  if (runs('mixed-load')) await stage('mixedLoad', 'mixed load', () => measureMixedLoad({ durationS: mixedLoadS }));
  if (runs('request-cost')) {
    await stage('requestCost', 'request cost', () => measureRequestCost({ durationS, warmupS, rounds: costRounds, floodS }));
  }
  if (runs('server-overhead')) {
    await stage('serverOverhead', 'server overhead', () => measureServerOverhead({ durationS, warmupS }));
    await stage('serverMemory', 'server memory', () => measureServerMemory());
  }
  if (runs('image')) await stage('image', 'Docker image', () => measureImage());
  if (interrupted) return 130;

  heading('Summary');
  const rows = buildRows(results, only);
  printTable(rows);
  const summaryFile = path.join(RESULTS_DIR, only ? `summary-${[...only].join('+')}.json` : 'summary.json');
  writeSummary(summaryFile, {
    generatedAt: new Date().toISOString(),
    node: process.version,
    build,
    stages: only ? [...only] : STAGES,
    rows,
    ...results,
    errors,
  });
  log(`\nWrote ${path.relative(ROOT, summaryFile)}`);
  const missed = rows.filter((r) => r.result === 'FAIL').length;
  if (missed) log(`${missed} target(s) missed (this is a report: exit code stays 0).`);
  if (errors.length) {
    log(`${errors.length} stage(s) crashed: ${errors.map((e) => e.stage).join(', ')}`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`\nbench crashed: ${error.stack ?? error}`);
    process.exit(1);
  },
);
