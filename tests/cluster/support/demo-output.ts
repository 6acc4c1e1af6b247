import type { Finished } from '../../../tools/lib/command.mjs';

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * Why a demo run failed, its first line first: the run's summary keeps only that line, and a
 * demo's stdout begins with its progress. The error (the first line of stderr beginning with one,
 * else naming one, else stderr's last) and stdout's last line, where the demo's verdict is; then both outputs whole.
 */
export function demoFailure(demo: Finished): string {
  const stderr = lines(demo.stderr);
  // Node prints the throwing line of source before the error itself: the error's own line first.
  const error =
    stderr.find((line) => /^\w*Error: /.test(line)) ??
    stderr.find((line) => /\b\w*Error\b/.test(line)) ??
    stderr.at(-1) ??
    'nothing on stderr';
  const verdict = lines(demo.stdout).at(-1) ?? 'nothing on stdout';
  return `exit ${demo.exitCode ?? 'by a signal'}: ${error} | stdout ends: ${verdict}\n${demo.stdout}\n${demo.stderr}`;
}
