// The cluster's long-running processes: started detached (they outlive `cluster:up`),
// each writing its log to logs/<name>.log and its pid to pids/<name>.pid.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PATHS } from './layout.mjs';

export function logFile(name) {
  return path.join(PATHS.logs, `${name}.log`);
}

function pidFile(name) {
  return path.join(PATHS.pids, `${name}.pid`);
}

export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid recorded for `name`, if that process still runs. */
export function runningPid(name) {
  if (!existsSync(pidFile(name))) return null;
  const pid = Number(readFileSync(pidFile(name), 'utf8'));
  return pid > 0 && isAlive(pid) ? pid : null;
}

/** Names of every process this cluster recorded. */
export function recordedProcesses() {
  if (!existsSync(PATHS.pids)) return [];
  return readdirSync(PATHS.pids)
    .filter((file) => file.endsWith('.pid'))
    .map((file) => file.slice(0, -'.pid'.length));
}

/** Starts `binary` with `args` in the background; returns its pid. */
export function startProcess(name, binary, args, env = {}) {
  mkdirSync(PATHS.logs, { recursive: true });
  mkdirSync(PATHS.pids, { recursive: true });
  const log = openSync(logFile(name), 'a');
  const child = spawn(binary, args, { detached: true, stdio: ['ignore', log, log], env: { ...process.env, ...env } });
  closeSync(log);
  child.unref();
  writeFileSync(pidFile(name), String(child.pid));
  return child.pid;
}

/** The last `lines` lines of a component's log, for a failure message. */
export function logTail(name, lines = 15) {
  if (!existsSync(logFile(name))) return `(no log at ${logFile(name)})`;
  return readFileSync(logFile(name), 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
export async function stopPid(pid, graceMs = 10_000) {
  if (!isAlive(pid)) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  while (isAlive(pid)) await sleep(50);
}

export async function stopProcess(name, graceMs) {
  const pid = runningPid(name);
  if (pid) await stopPid(pid, graceMs);
  rmSync(pidFile(name), { force: true });
}
