// The one way the harness starts a server or daemon that runs beside it (the app, Next's own
// server, Prometheus, haproxy, Alertmanager, Jaeger): started without a shell, its output kept,
// waited for until it is ready, killed when it is not, and stopped with a signal. Programs
// that run to their end go through ./command.mjs; the cluster's components, which outlive
// the command that starts them, through tools/cluster/processes.mjs.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { exitAsFailure, waitFor } from './wait.mjs';

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
 * `readyTimeoutMs`); rejects, naming `name` and showing its last output, when the daemon exits
 * first or the time runs out, and then it is killed: nothing outlives the run that started it.
 * Without `ready`, resolves at once.
 * @param {{
 *   name: string, command: string, args: string[], env?: NodeJS.ProcessEnv, cwd?: string,
 *   ready?: (daemon: Daemon) => unknown, readyTimeoutMs?: number,
 * }} options
 * @returns {Promise<Daemon>}
 */
export async function startDaemon({ name, command, args, env = process.env, cwd, ready, readyTimeoutMs = 30_000 }) {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    output += chunk;
  });
  const exit = once(child, 'exit');
  /** @type {Daemon} */
  const daemon = {
    pid: child.pid,
    stdout: () => stdout,
    stderr: () => stderr,
    output: () => output,
    exited: exit.then(([code]) => code),
    kill: (signal) => void child.kill(signal),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return daemon.exited;
    },
  };
  if (!ready) return daemon;
  // Once ready, a later exit is expected (stop()): exitAsFailure never leaves it unhandled.
  const diedEarly = exitAsFailure(name, exit, () => output);
  try {
    await Promise.race([waitFor(`${name} to be ready`, () => ready(daemon), { timeoutMs: readyTimeoutMs, intervalMs: 100 }), diedEarly]);
  } catch (error) {
    await daemon.stop('SIGKILL');
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- ${name}'s last output ---\n${output.slice(-4000)}`);
  }
  return daemon;
}
