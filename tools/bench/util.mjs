// Small helpers shared by the benchmark modules.
import { spawn, spawnSync } from 'node:child_process';

// The project's Chromium and its flags (headless mode is added by each caller).
export { CHROMIUM_ARGS as CHROMIUM_FLAGS, CHROMIUM_PATH } from '../debian-packages.mjs';

export function log(message = '') {
  process.stdout.write(`${message}\n`);
}

export function heading(title) {
  log('');
  log(`=== ${title} ===`);
}

/** A loud, hard-to-miss line (installs, warnings). */
export function loud(message) {
  log('');
  log('#'.repeat(78));
  log(`### ${message}`);
  log('#'.repeat(78));
}

/** True when `command` is an executable on PATH. */
export function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Runs a command with inherited output; throws on a non-zero exit. */
export function runInherit(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

const liveChildren = new Set();

/** Ends the commands runCapture started that are still running (on Ctrl-C). */
export function killChildren() {
  for (const child of liveChildren) child.kill('SIGTERM');
}

/** Runs a command and collects its output; rejects on a non-zero exit. */
export function runCapture(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    liveChildren.add(child);
    child.on('exit', () => liveChildren.delete(child));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}\n${stdout}${stderr}`));
    });
  });
}

/** A TCP port that is free on 127.0.0.1 right now (bind port 0, read it, release it). */
export { freePort } from '../lib/ports.mjs';

/** Positive number from an environment variable, or the default. */
export function envNumber(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${JSON.stringify(raw)}`);
  return value;
}

export const kib = (bytes) => bytes / 1024;
export const round = (value, digits = 1) => (value === null || value === undefined ? null : Number(value.toFixed(digits)));
