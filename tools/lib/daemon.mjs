// The one way the harness starts a server or daemon that runs beside it (the app, Next's own
// server, Prometheus, haproxy, Alertmanager, Jaeger): started without a shell, its output kept,
// waited for until it is ready, killed when it is not, and stopped with a signal. Programs
// that run to their end go through ./command.mjs; the cluster's components, which outlive
// the command that starts them, through tools/cluster/processes.mjs.
import { spawn } from 'node:child_process';
import { waitWhileRunning } from './wait.mjs';

// A daemon that logs every request (the app's access log under a flood) would otherwise grow without end.
const OUTPUT_TAIL = 64 * 1024;

/**
 * @typedef {{
 *   pid: number | undefined,
 *   stdout(): string,
 *   stderr(): string,
 *   output(): string,
 *   exited: Promise<number | null>,
 *   kill(signal: NodeJS.Signals): void,
 *   stop(signal?: NodeJS.Signals): Promise<number | null>,
 * }} Daemon
 */

/**
 * Starts `command` and resolves once `ready` resolves (it is polled until it does, for at most
 * `readyTimeoutMs`); rejects, naming `name` and showing its last output, when the program
 * cannot start, exits first or the time runs out, and then it is killed: nothing outlives the
 * run that started it. Without `ready`, resolves once it has started. Its stdout, stderr and
 * both together are kept to their last 64 Ki characters each, or whole with `keepAllOutput`.
 * @param {{
 *   name: string, command: string, args: string[], env?: NodeJS.ProcessEnv, cwd?: string,
 *   ready?: (daemon: Daemon) => unknown, readyTimeoutMs?: number, keepAllOutput?: boolean,
 * }} options
 * @returns {Promise<Daemon>}
 */
export async function startDaemon({ name, command, args, env = process.env, cwd, ready, readyTimeoutMs = 30_000, keepAllOutput = false }) {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const kept = (/** @type {string} */ text) => (keepAllOutput || text.length <= OUTPUT_TAIL ? text : text.slice(-OUTPUT_TAIL));
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout.on('data', (chunk) => {
    stdout = kept(stdout + chunk);
    output = kept(output + chunk);
  });
  child.stderr.on('data', (chunk) => {
    stderr = kept(stderr + chunk);
    output = kept(output + chunk);
  });
  /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null } | { error: Error }>} */
  const ended = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    // A program that cannot start (missing, not executable) emits 'error' and never 'exit'.
    child.on('error', (error) => resolve({ error }));
  });
  /** @type {Daemon} */
  const daemon = {
    pid: child.pid,
    stdout: () => stdout,
    stderr: () => stderr,
    output: () => output,
    exited: ended.then((end) => ('code' in end ? end.code : null)),
    kill: (signal) => void child.kill(signal),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return daemon.exited;
    },
  };
  const started = await Promise.race([new Promise((resolve) => child.once('spawn', () => resolve(null))), ended]);
  if (started && 'error' in started) throw new Error(`${name}: cannot start ${command}: ${started.error.message}`);
  if (!ready) return daemon;
  /** @type {Promise<unknown[]>} */
  const exited = ended.then((end) => ('error' in end ? [end.error.message, null] : [end.code, end.signal]));
  try {
    await waitWhileRunning(
      `${name} to be ready`,
      () => ready(daemon),
      { name, exited, output: () => output },
      {
        timeoutMs: readyTimeoutMs,
        intervalMs: 100,
      },
    );
  } catch (error) {
    await daemon.stop('SIGKILL');
    throw error;
  }
  return daemon;
}
