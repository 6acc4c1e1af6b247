// The cluster's long-running processes: started detached (they outlive `cluster:up`),
// each writing its log to logs/<name>.log and its pid to pids/<name>.pid.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PATHS } from './layout.mjs';

/** @param {string} name */
export function logFile(name) {
  return path.join(PATHS.logs, `${name}.log`);
}

/** @param {string} name */
function pidFile(name) {
  return path.join(PATHS.pids, `${name}.pid`);
}

/** Field 3 (state) and 22 (start time) of /proc/<pid>/stat, or null once the pid is gone. @param {number} pid */
function procStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; the fields after its ')' do not.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], startTime: fields[19] };
  } catch {
    return null;
  }
}

/** Whether `pid` runs; a zombie (exited, not yet reaped) does not. @param {number} pid */
export function isAlive(pid) {
  const stat = procStat(pid);
  return stat !== null && stat.state !== 'Z';
}

/** The pid recorded for `name`, if that very process still runs (not another that reused its pid). @param {string} name */
export function runningPid(name) {
  if (!existsSync(pidFile(name))) return null;
  const [pid, startTime] = readFileSync(pidFile(name), 'utf8').trim().split(' ').map(Number);
  if (!pid || !isAlive(pid)) return null;
  return Number(procStat(pid)?.startTime) === startTime ? pid : null;
}

/** Names of every process this cluster recorded. */
export function recordedProcesses() {
  if (!existsSync(PATHS.pids)) return [];
  return readdirSync(PATHS.pids)
    .filter((file) => file.endsWith('.pid'))
    .map((file) => file.slice(0, -'.pid'.length));
}

/**
 * Starts `binary` with `args` in the background; returns its pid.
 * @param {string} name @param {string} binary @param {string[]} args @param {Record<string, string>} [env]
 */
export function startProcess(name, binary, args, env = {}) {
  mkdirSync(PATHS.logs, { recursive: true });
  mkdirSync(PATHS.pids, { recursive: true });
  const log = openSync(logFile(name), 'a');
  const child = spawn(binary, args, { detached: true, stdio: ['ignore', log, log], env: { ...process.env, ...env } });
  closeSync(log);
  child.unref();
  // No pid: the binary could not be started at all (spawn reports why on 'error').
  if (child.pid === undefined) throw new Error(`cluster: could not start ${name} (${binary})`);
  // With its start time: a pid reused by another process after a reboot or a crash is never ours.
  writeFileSync(pidFile(name), `${child.pid} ${procStat(child.pid)?.startTime}`);
  return child.pid;
}

/** The last `lines` lines of a component's log, for a failure message. @param {string} name */
export function logTail(name, lines = 15) {
  if (!existsSync(logFile(name))) return `(no log at ${logFile(name)})`;
  return readFileSync(logFile(name), 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {number} pid @param {NodeJS.Signals} name */
function signal(pid, name) {
  try {
    process.kill(pid, name);
  } catch {
    // Gone meanwhile.
  }
}

/**
 * Sends SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone, or
 * rejects naming it if even SIGKILL left it running 10 s later (stuck in the kernel).
 * @param {number} pid
 */
export async function stopPid(pid, graceMs = 10_000) {
  if (!isAlive(pid)) return;
  signal(pid, 'SIGTERM');
  let deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  if (!isAlive(pid)) return;
  signal(pid, 'SIGKILL');
  deadline = Date.now() + 10_000;
  while (isAlive(pid) && Date.now() < deadline) await sleep(50);
  if (isAlive(pid))
    throw new Error(`cluster: process ${pid} still runs 10 s after SIGKILL (state ${procStat(pid)?.state}); stop it by hand`);
}

/** @param {string} name @param {number} [graceMs] */
export async function stopProcess(name, graceMs) {
  const pid = runningPid(name);
  if (pid) await stopPid(pid, graceMs);
  rmSync(pidFile(name), { force: true });
}

/**
 * Pids of live processes whose `/proc/<pid>/<file>` matches `test`.
 * @param {string} file @param {(text: string) => boolean} test
 */
export function processesWhere(file, test) {
  /** @type {number[]} */
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (test(readFileSync(`/proc/${entry}/${file}`, 'utf8'))) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}
