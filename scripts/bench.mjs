// `npm run bench`: throughput, the ceiling, memory under mixed load, what each kind of request
// costs, a page at a fixed rate through floods, the pages' JavaScript, Lighthouse, traces and
// HTML against a floor, our entry's overhead against Next's server.js, and the Docker image;
// every figure against a baseline measured in the same run. A report, not a test: a missed
// target still exits 0; a crash (tools missing, server down, a stage throwing) exits 1.
// `--help` lists the stages and flags.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, startApp } from '../tools/lib/app-server.mjs';
import { measureCeiling } from '../tools/bench/ceiling.mjs';
import { measureMixedLoad } from '../tools/bench/mixed-load.mjs';
import { measureRequestCost } from '../tools/bench/request-cost.mjs';
import { measureFloods } from '../tools/bench/flood.mjs';
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
import { freePort, heading, log } from '../tools/bench/util.mjs';
import { HELP, parseCommand, usageError } from '../tools/lib/cli.mjs';
import { stopRunning } from '../tools/lib/command.mjs';
import { onPinnedNode } from '../tools/node-runtime.mjs';

const RESULTS_DIR = path.join(ROOT, 'bench-results');
const STAGES = [
  'throughput',
  'ceiling',
  'mixed-load',
  'request-cost',
  'flood',
  'js',
  'lighthouse',
  'trace',
  'html',
  'server-overhead',
  'image',
];
/** The stages that load pages in a browser, each beside the floor. */
const PAGE_STAGES = ['js', 'lighthouse', 'trace', 'html'];
/** The pages the bench measures; the 404 joins the simulated Lighthouse runs for its audits. */
const PAGES = [
  { id: 'root', path: '/' },
  { id: 'ja', path: '/ja' },
  { id: 'zh-CN', path: '/zh-CN' },
];
const USAGE = `Usage: npm run bench [-- options]

  --only <stages>                  a comma-separated list of the stages to run (default: all):
      throughput                   wrk against the page, rounds alternating with the floor's
      ceiling                      /ja against a bare node:http server and Next's server.js
      mixed-load                   RSS, peak RSS and V8 heap under 60 % pages and 40 % random 404s
      request-cost                 every kind of request a visitor can send, against a page, then a
                                   flood of the most expensive
      flood                        /ja at a fixed rate (vegeta) through floods of each kind crawlers
                                   and scanners send, each after /ja alone; then the dearest kind
                                   against a fresh server, the pod's memory throughout
      js, lighthouse, trace, html  the pages in Chromium, each beside the floor (a hello world with
                                   the same Next settings) and, for lighthouse and trace, each page's
                                   static twin (its HTML and CSS, no scripts): JavaScript bytes by
                                   the load event and 300 ms after it, Lighthouse (applied and
                                   simulated throttling), the main thread's work before the largest
                                   paint, the raw HTML
      server-overhead              our entry against Next's server.js, and its memory growth
      image                        the Docker image's size above its base, and its start to ready
  --duration-s <s>                 wrk seconds per target and run (default 10)
  --warmup-s <s>                   wrk warm-up seconds (default 2)
  --rounds <n>                     alternating wrk rounds of throughput (default 2)
  --ceiling-rounds <n>             rounds of ceiling (default 3)
  --mixed-load-s <s>               seconds of mixed-load (default 180)
  --cost-rounds <n>                rounds of request-cost (default 2)
  --flood-s <s>                    seconds of request-cost's flood and of flood's dearest kind
                                   (default 180)
  --flood-page-rate <n>            flood: /ja's requests a second (default 1000)
  --flood-rate <n>                 flood: each flood's requests a second (default 200)
  --flood-kind-s <s>               flood: seconds of each kind's flood (default 60)
  --flood-quiet-s <s>              flood: seconds of /ja alone before each kind (default 30)
  --lighthouse-runs <n>            Lighthouse rounds, applied throttling, each of the pages, their
                                   static twins and the floor (default 5)
  --cls-runs <n>                   applied-throttling runs of each page for its layout stability, the
                                   rounds above included (default 20)
  --lighthouse-simulated-runs <n>  Lighthouse rounds, simulated throttling (default 3)
  --trace-rounds <n>               trace rounds (default 5)
  --rebuild                        rebuild unless .next is a production build of the current sources
                                   (by default an existing build is reused)

A partial run writes bench-results/summary-<stages>.json, so the full report in
bench-results/summary.json is kept.`;

const NUMBERS = /** @type {const} */ ({
  'duration-s': 10,
  'warmup-s': 2,
  rounds: 2,
  'ceiling-rounds': 3,
  'mixed-load-s': 180,
  'cost-rounds': 2,
  'flood-s': 180,
  'flood-page-rate': 1000,
  'flood-rate': 200,
  'flood-kind-s': 60,
  'flood-quiet-s': 30,
  'lighthouse-runs': 5,
  'cls-runs': 20,
  'lighthouse-simulated-runs': 3,
  'trace-rounds': 5,
});

const { values } = parseCommand('bench', USAGE, () =>
  parseArgs({
    options: {
      only: { type: 'string' },
      rebuild: { type: 'boolean', default: false },
      ...Object.fromEntries(Object.keys(NUMBERS).map((name) => [name, { type: /** @type {const} */ ('string') }])),
      help: HELP,
    },
  }),
);
// Every stage's servers on the Node production runs: they are started with this process's node.
onPinnedNode();

/**
 * The whole positive number given as `--<name>`, at least `min`, or its default.
 * @param {keyof typeof NUMBERS} name @param {number} [min]
 */
function number(name, min = 1) {
  const raw = /** @type {Record<string, unknown>} */ (values)[name];
  if (raw === undefined) return NUMBERS[name];
  const value = Number(raw);
  if (typeof raw !== 'string' || !Number.isFinite(value) || value <= 0)
    usageError('bench', USAGE, `--${name} must be a positive number, got ${JSON.stringify(raw)}`);
  return Math.max(min, Math.round(value));
}

/** The stages --only selects; null for a full run. */
function selectedStages() {
  const raw = (values.only ?? '').trim();
  if (!raw) return null;
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !STAGES.includes(name));
  if (unknown.length || !names.length)
    usageError('bench', USAGE, `--only ${JSON.stringify(raw)}: expected a comma-separated list of ${STAGES.join(', ')}`);
  return new Set(names);
}

async function main() {
  const durationS = number('duration-s');
  const warmupS = number('warmup-s');
  const rounds = number('rounds');
  const ceilingRounds = number('ceiling-rounds');
  const mixedLoadS = number('mixed-load-s', 10);
  const costRounds = number('cost-rounds');
  const floodS = number('flood-s', 10);
  const floodPageRate = number('flood-page-rate');
  const floodRate = number('flood-rate');
  const floodKindS = number('flood-kind-s', 5);
  const floodQuietS = number('flood-quiet-s', 5);
  const lighthouseRuns = number('lighthouse-runs');
  const clsRuns = Math.max(lighthouseRuns, number('cls-runs'));
  const simulatedRuns = number('lighthouse-simulated-runs');
  const traceRounds = number('trace-rounds');
  const only = selectedStages();
  const runs = (/** @type {string} */ name) => !only || only.has(name);
  log(`Meridian benchmark: wrk duration ${durationS} s per target (--duration-s), ${rounds} rounds.`);
  if (only) log(`--only: running ${[...only].join(', ')}; skipping ${STAGES.filter((s) => !runs(s)).join(', ') || 'nothing'}.`);

  const pageStages = PAGE_STAGES.some(runs);
  heading('Tools');
  ensureTools({ browser: pageStages });
  const build = ensureBuild({ rebuild: values.rebuild });
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
      stopRunning();
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
    flood: null,
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
  if (runs('flood')) {
    await stage('flood', 'floods', () =>
      measureFloods({ pageRate: floodPageRate, floodRate, kindS: floodKindS, quietS: floodQuietS, floodS }),
    );
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
