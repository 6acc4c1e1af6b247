// Runs a program without a shell and without blocking the event loop: the
// Docker scripts and tests wait on builds that take minutes. In tools/: the machine
// set-up, the user commands and the tests all run programs.
import { spawn, spawnSync } from 'node:child_process';

/**
 * Runs `command` with `args`; resolves with its output, rejects with an error that
 * ends with what it printed last. `echo` streams its output to ours as it comes.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, input?: string, echo?: boolean }} [options]
 * @returns {Promise<{ stdout: string, stderr: string }>}
 */
export function run(command, args, { cwd, env, input, echo = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (echo) process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (echo) process.stderr.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolve({ stdout, stderr });
      const tail = `${stdout}${stderr}`.trim().split('\n').slice(-30).join('\n');
      reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}:\n${tail}`));
    });
    // A program that exits without reading its input (iptables-save) closes the pipe
    // first: that EPIPE is no failure, its exit status says how it went.
    child.stdin.on('error', (/** @type {NodeJS.ErrnoException} */ error) => {
      if (error.code !== 'EPIPE') reject(error);
    });
    child.stdin.end(input ?? '');
  });
}

/**
 * Whether `command` runs and exits 0 (quick checks only: it blocks).
 * @param {string} command
 * @param {string[]} args
 */
export function succeeds(command, args) {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}
