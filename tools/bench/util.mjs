// Small helpers shared by the benchmark modules.
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

/** A TCP port that is free on 127.0.0.1 right now (bind port 0, read it, release it). */
export { freePort } from '../lib/ports.mjs';

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
