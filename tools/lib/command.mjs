// The one way the harness runs a program to its end: tinyexec (a small wrapper of Node's spawn
// with no dependencies, kept by the tinylibs group; vitest runs on it), never a shell, its
// output kept for the error, no retries. Servers and daemons start through ./daemon.mjs.
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { x, xSync } from 'tinyexec';

/**
 * `env` is added to this process's environment (tinyexec spreads it over process.env); with
 * `inheritEnv: false` it is the program's whole environment.
 * @typedef {{ cwd?: string, env?: Record<string, string | undefined>, inheritEnv?: boolean, input?: string, timeoutMs?: number }} CommandOptions
 */

/**
 * What a program printed and how it exited: run's and runSync's result, the one type for it.
 * @typedef {{ stdout: string, stderr: string, exitCode: number | undefined }} Finished
 */

/**
 * The environment to hand tinyexec: since it spreads `env` over ours, ours is cancelled
 * variable by variable when not inherited (spawn leaves out a variable whose value is undefined).
 * @param {Record<string, string | undefined> | undefined} env
 * @param {boolean} inheritEnv
 */
function environment(env, inheritEnv) {
  const only = { ...env };
  if (!inheritEnv) for (const name of Object.keys(process.env)) if (!(name in only)) only[name] = undefined;
  // Next's types make NODE_ENV required in every ProcessEnv; a program's environment need not have it.
  return /** @type {NodeJS.ProcessEnv} */ (only);
}

/**
 * What a program that could not start (ENOENT) or ran out of time gives with `check: false`: a
 * failed exit like any other, with no exit code and the reason as its stderr.
 * @param {unknown} error
 * @returns {Finished}
 */
function notFinished(error) {
  return { stdout: '', stderr: error instanceof Error ? error.message : String(error), exitCode: undefined };
}

/** The error of a program that failed: its command line, exit and the last lines it printed. */
function failure(
  /** @type {string} */ command,
  /** @type {string[]} */ args,
  /** @type {Finished & { signalCode?: string | null }} */ out,
) {
  const tail = `${out.stdout}${out.stderr}`.trim().split('\n').slice(-30).join('\n');
  return new Error(`${command} ${args.join(' ')} exited with ${out.exitCode ?? out.signalCode ?? 'a signal'}:\n${tail}`);
}

/** @type {Set<import('tinyexec').Result>} */
const running = new Set();

/** Ends every program `run` started that still runs (a command's Ctrl-C). */
export function stopRunning(signal = /** @type {NodeJS.Signals} */ ('SIGTERM')) {
  for (const child of running) child.kill(signal);
}

/**
 * Runs `command` with `args` and resolves with what it printed, or resolves with its exit too
 * when `check` is false (a program that cannot start included); otherwise rejects with an
 * error that ends with what it printed last. `echo` streams its output to ours as it comes.
 * @param {string} command
 * @param {string[]} args
 * @param {CommandOptions & { echo?: boolean, check?: boolean }} [options]
 * @returns {Promise<Finished>}
 */
export async function run(command, args, { cwd, env, inheritEnv = true, input, timeoutMs, echo = false, check = true } = {}) {
  const child = x(command, args, {
    nodeOptions: { cwd, env: environment(env, inheritEnv) },
    stdin: input ?? '',
    timeout: timeoutMs,
    throwOnError: false,
    nodePath: false,
  });
  running.add(child);
  const finished = Promise.resolve(child).finally(() => running.delete(child));
  // A program that exits without reading its input (iptables-save) closes the pipe first:
  // that EPIPE is no failure, its exit status says how it went.
  /** @type {Error | undefined} */
  let inputError;
  child.process?.stdin?.on('error', (/** @type {NodeJS.ErrnoException} */ error) => {
    if (error.code !== 'EPIPE') inputError = error;
  });
  if (echo) {
    child.process?.stdout?.on('data', (chunk) => process.stdout.write(chunk));
    child.process?.stderr?.on('data', (chunk) => process.stderr.write(chunk));
  }
  let out;
  try {
    out = await finished;
  } catch (error) {
    if (check) throw error;
    return notFinished(error);
  }
  if (inputError) throw inputError;
  if (check && out.exitCode !== 0) throw failure(command, args, { ...out, signalCode: child.signalCode });
  return out;
}

/**
 * `run`, blocking: for set-up that everything after it waits on (apt, tar, openssl). `echo`
 * sends what the program prints to our stderr as it comes (not kept): progress is never on a
 * command's stdout, which may be read (`eval "$(npm run --silent cluster:up)"`).
 * @param {string} command
 * @param {string[]} args
 * @param {CommandOptions & { check?: boolean, echo?: boolean }} [options]
 * @returns {Finished}
 */
export function runSync(command, args, { cwd, env, inheritEnv = true, input, timeoutMs, check = true, echo = false } = {}) {
  // Output past spawnSync's 1 MiB default (a recursive apt-cache listing) is kept, not refused.
  /** @type {import('node:child_process').SpawnSyncOptions} */
  const nodeOptions = { cwd, env: environment(env, inheritEnv), input, maxBuffer: 1 << 26, ...(echo ? { stdio: ['pipe', 2, 2] } : {}) };
  let out;
  try {
    out = xSync(command, args, { nodeOptions, timeout: timeoutMs, throwOnError: false, nodePath: false });
  } catch (error) {
    if (check) throw error;
    return notFinished(error);
  }
  const finished = { stdout: out.stdout, stderr: out.stderr, exitCode: out.exitCode };
  if (check && out.exitCode !== 0) throw failure(command, args, { ...finished, signalCode: out.signalCode });
  return finished;
}

/**
 * Whether `command` runs and exits 0 (quick checks only: it blocks).
 * @param {string} command
 * @param {string[]} args
 * @param {{ timeoutMs?: number }} [options]
 */
export function succeeds(command, args, { timeoutMs } = {}) {
  return runSync(command, args, { check: false, timeoutMs }).exitCode === 0;
}

/**
 * Where `command` is on PATH, or null: what a shell's `command -v` says, without a shell.
 * @param {string} command
 */
export function onPath(command) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, command);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not in this folder
    }
  }
  return null;
}
