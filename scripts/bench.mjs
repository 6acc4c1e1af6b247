// Performance benchmark: throughput (wrk), first-visit JS bytes (Chromium) and
// Lighthouse mobile scores for the production build. A report, not a test: a missed
// target still exits 0; a crash (tools missing, server down, a stage throwing) exits 1.
// Env: BENCH_DURATION_S (wrk seconds per target, default 10), BENCH_WARMUP_S (default 2),
// BENCH_ROUNDS (alternating wrk rounds, default 2), BENCH_REBUILD=1 (rebuild unless .next is a
// production build of the current sources; by default an existing build is reused).
import path from 'node:path';
import { ROOT, startApp } from './lib/app-server.mjs';
import { measureFirstVisitJs } from './bench/js-bytes.mjs';
import { runLighthouse } from './bench/lighthouse.mjs';
import { buildRows, printTable, writeSummary } from './bench/summary.mjs';
import { measureThroughput } from './bench/throughput.mjs';
import { ensureBuild, ensureTools } from './bench/tools.mjs';
import { envNumber, freePort, heading, killChildren, log } from './bench/util.mjs';

const RESULTS_DIR = path.join(ROOT, 'bench-results');

async function main() {
  const durationS = Math.max(1, Math.round(envNumber('BENCH_DURATION_S', 10)));
  const warmupS = Math.max(1, Math.round(envNumber('BENCH_WARMUP_S', 2)));
  const rounds = Math.max(1, Math.round(envNumber('BENCH_ROUNDS', 2)));
  log(`Meridian benchmark: wrk duration ${durationS} s per target (set BENCH_DURATION_S to change), ${rounds} rounds.`);

  heading('Tools');
  ensureTools();
  const build = ensureBuild();

  const port = await freePort();
  let app = null;
  const stopApp = async () => {
    const running = app;
    app = null;
    if (running) await running.stop();
  };
  let interrupted = false;
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      interrupted = true;
      log(`\n${signal}: stopping wrk and the app server`);
      killChildren();
      stopApp().finally(() => process.exit(130));
    });
  }
  // Last resort (e.g. chrome-launcher's own SIGINT handler exits the process): stop() signals synchronously.
  process.once('exit', () => app?.stop());

  const results = { throughput: null, js: null, lighthouse: null };
  const errors = [];
  try {
    heading('App server');
    app = await startApp({ port });
    log(`Started the app server (scripts/lib/app-server.mjs) at ${app.url}`);

    const stage = async (key, name, fn) => {
      if (interrupted) return;
      try {
        results[key] = await fn();
      } catch (error) {
        if (interrupted) return;
        errors.push({ stage: name, message: error.message });
        log(`\nERROR in ${name}: ${error.stack ?? error}`);
        log(`App server output (last 2000 chars):\n${app?.output().slice(-2000) ?? '(not running)'}`);
      }
    };
    await stage('throughput', 'throughput', () => measureThroughput(app.url, { durationS, warmupS, rounds }));
    await stage('js', 'first-visit JS', () => measureFirstVisitJs(`${app.url}/`));
    await stage('lighthouse', 'lighthouse', () =>
      runLighthouse(`${app.url}/`, { reportFile: path.join(RESULTS_DIR, 'lighthouse-root.json') }),
    );
  } finally {
    await stopApp();
  }
  if (interrupted) return 130;

  heading('Summary');
  const rows = buildRows(results);
  printTable(rows);
  const summaryFile = path.join(RESULTS_DIR, 'summary.json');
  writeSummary(summaryFile, {
    generatedAt: new Date().toISOString(),
    node: process.version,
    build,
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
