// Small helpers shared by the benchmark modules.
import { spawn, spawnSync } from 'node:child_process';

// The project's Chromium and its flags (headless mode is added by each caller).
export { CHROMIUM_ARGS as CHROMIUM_FLAGS, CHROMIUM_PATH } from '../debian-packages.mjs';

export function log(message = '') {
  process.stdout.write(`${message}\n`);
}

/** @param {string} title */
export function heading(title) {
  log('');
  log(`=== ${title} ===`);
}

/**
 * A loud, hard-to-miss line (installs, warnings).
 * @param {string} message
 */
export function loud(message) {
  log('');
  log('#'.repeat(78));
  log(`### ${message}`);
  log('#'.repeat(78));
}

/**
 * True when `command` is an executable on PATH.
 * @param {string} command
 */
export function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Runs a command with inherited output; throws on a non-zero exit.
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} [options]
 */
export function runInherit(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

/** @type {Set<import('node:child_process').ChildProcess>} */
const liveChildren = new Set();

/** Ends the commands runCapture started that are still running (on Ctrl-C). */
export function killChildren() {
  for (const child of liveChildren) child.kill('SIGTERM');
}

/**
 * Runs a command and collects its output; rejects on a non-zero exit.
 * @param {string} command
 * @param {string[]} args
 * @returns {Promise<{ stdout: string, stderr: string }>}
 */
export function runCapture(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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

/**
 * Positive number from an environment variable, or the default.
 * @param {string} name
 * @param {number} fallback
 */
export function envNumber(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${JSON.stringify(raw)}`);
  return value;
}

export const kib = (/** @type {number} */ bytes) => bytes / 1024;

/**
 * @overload
 * @param {number} value
 * @param {number} [digits]
 * @returns {number}
 */
/**
 * @overload
 * @param {number | null | undefined} value
 * @param {number} [digits]
 * @returns {number | null}
 */
/**
 * `value` to `digits` decimals; null stays null (a figure that was not measured).
 * @param {number | null | undefined} value
 * @param {number} [digits]
 */
export function round(value, digits = 1) {
  return value === null || value === undefined ? null : Number(value.toFixed(digits));
}

/**
 * The middle value (the upper one of an even count); NaN for none (JSON writes it as null).
 * @param {readonly number[]} values
 */
export function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
}
