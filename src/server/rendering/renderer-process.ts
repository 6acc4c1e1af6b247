import { fork, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { createInterface } from 'node:readline';
import type { Logger } from 'pino';
import type { Metrics } from '@/server/observability/metrics';
import { isLocale } from '@/shared/locales';
import { isNamespace } from '@/i18n/namespaces';
import type { FromRenderer, ToRenderer } from './renderer-messages';

/**
 * The renderer runs at a lower priority than the serving process, so that when both want
 * the CPU the pages win: a render waits a little, a page does not (docs/architecture.md).
 */
export const RENDERER_NICENESS = 10;
/**
 * What Next's renders leave behind (undici's requests, held until a full collection) grew the
 * renderer past 250 MiB in a flood; a small young generation and a capped old one make V8
 * collect early instead. Renders that need more than this fail, and the renderer restarts.
 * No optimising compiler (Maglev, Turbofan): their code and compile zones took about 45 MiB
 * more through a flood of renders on Node 24, for about a third more renders a second than
 * bytecode and Sparkplug give (docs/performance.md); the renderer is the bounded, shed path.
 */
const RENDERER_V8_FLAGS = ['--max-old-space-size=64', '--max-semi-space-size=1', '--no-maglev', '--no-turbofan'];
/** Restarts back off from this, doubling up to RESTART_MAX_MS while the renderer keeps dying young. */
const RESTART_MIN_MS = 250;
const RESTART_MAX_MS = 8000;
/** A renderer that lived this long before it died is restarted at once, not after a back-off. */
const HEALTHY_LIFETIME_MS = 30_000;

export interface RendererProcess {
  /** The renderer's private loopback port while it is up; null while it starts or restarts. */
  port(): number | null;
  /** Resolves with the port the first time the renderer listens; rejects if that first start fails. */
  readonly started: Promise<number>;
  /** The renderer's process id while one runs. */
  pid(): number | undefined;
  /**
   * From now on the renderer runs at RENDERER_NICENESS, and so does each one restarted. Called
   * once the server is ready: on a busy node a niced start (Next's loading, the templates)
   * would hold the pod's readiness back.
   */
  lowerPriority(): void;
  /** Disconnects the renderer, which then exits; killed after `timeoutMs`. */
  stop(timeoutMs: number): Promise<void>;
}

interface SupervisorOptions {
  /** The renderer's compiled entry (meridian-renderer.cjs). */
  entry: string;
  routeHandoverKey: string;
  logger: Logger;
  /** Where the serving process writes its log lines: the renderer's join them whole, never cut into by another write. */
  logDestination: { write(line: string): unknown };
  metrics: Metrics;
}

/**
 * Starts the renderer and keeps one running: when it dies it is restarted (immediately if it
 * had lived a while, else after a growing back-off), counted and logged, while the serving
 * process goes on answering pages. Its CPU time and memory are counted on our registry.
 */
export function superviseRenderer(options: SupervisorOptions): RendererProcess {
  const { logger, metrics } = options;
  let child: ChildProcess | undefined;
  let port: number | null = null;
  let stopping = false;
  let failures = 0;
  let lowered = false;
  const lowerPriority = (pid: number | undefined) => {
    try {
      if (pid !== undefined) setPriority(pid, RENDERER_NICENESS);
    } catch (error) {
      logger.warn({ err: error }, 'Renderer: could not lower its priority');
    }
  };
  let firstStart: { resolve(port: number): void; reject(error: Error): void } | undefined;
  const started = new Promise<number>((resolve, reject) => (firstStart = { resolve, reject }));

  const start = () => {
    const startedAt = Date.now();
    let reportedCpu = 0;
    const renderer = fork(options.entry, [], {
      execArgv: RENDERER_V8_FLAGS,
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      serialization: 'json',
    });
    child = renderer;
    if (renderer.stdout)
      createInterface({ input: renderer.stdout, crlfDelay: Infinity }).on('line', (line) => options.logDestination.write(`${line}\n`));
    renderer.on('message', (message: FromRenderer) => {
      if (message.type === 'listening') {
        if (lowered) lowerPriority(renderer.pid);
        port = message.port;
        metrics.rendererUp.set(1);
        logger.info({ pid: renderer.pid, renderer_port: port }, 'Renderer listening');
        firstStart?.resolve(port);
        firstStart = undefined;
      } else if (message.type === 'usage') {
        metrics.rendererCpuSeconds.inc(Math.max(0, message.cpuSeconds - reportedCpu));
        reportedCpu = message.cpuSeconds;
        metrics.rendererResidentMemory.set(message.residentBytes);
      } else if (message.type === 'locale-load-failed') {
        const { locale, namespace, source } = message.failure;
        metrics.localeLoadFailures.inc({
          locale: isLocale(locale) ? locale : 'other',
          namespace: isNamespace(namespace) ? namespace : 'other',
          source,
          page_build: 'self',
        });
      }
    });
    renderer.on('error', (error) => logger.error({ err: error }, 'Renderer: process error'));
    renderer.once('exit', (code, signal) => {
      if (child === renderer) child = undefined;
      port = null;
      metrics.rendererUp.set(0);
      metrics.rendererResidentMemory.set(0);
      if (stopping) return;
      if (firstStart) {
        firstStart.reject(new Error(`the renderer exited before it listened (code ${code}, signal ${signal})`));
        firstStart = undefined;
        return;
      }
      const lived = Date.now() - startedAt;
      failures = lived >= HEALTHY_LIFETIME_MS ? 0 : failures + 1;
      const delay = failures === 0 ? 0 : Math.min(RESTART_MAX_MS, RESTART_MIN_MS * 2 ** (failures - 1));
      metrics.rendererRestarts.inc();
      logger.error({ code, signal, lived_ms: lived, restart_in_ms: delay }, 'Renderer exited: restarting it; renders are shed meanwhile');
      setTimeout(start, delay).unref();
    });
    renderer.send({ type: 'start', routeHandoverKey: options.routeHandoverKey } satisfies ToRenderer);
  };
  start();

  return {
    port: () => port,
    started,
    pid: () => child?.pid,
    lowerPriority() {
      lowered = true;
      lowerPriority(child?.pid);
    },
    async stop(timeoutMs) {
      stopping = true;
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      if (running.connected) running.disconnect();
      const timer = setTimeout(() => running.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
