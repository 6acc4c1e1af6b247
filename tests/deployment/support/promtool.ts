import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { runSync } from '../../../tools/lib/command.mjs';

export interface PromtoolResult {
  status: number | null;
  output: string;
}

/** promtool from Debian's prometheus package, which the deployment suite's global setup installs. */
export function promtool(args: string[]): PromtoolResult {
  const result = runSync('promtool', args, { check: false });
  return { status: result.exitCode ?? null, output: result.stdout + result.stderr };
}

const scratch = mkdtempSync(path.join(tmpdir(), 'meridian-promtool-'));
let files = 0;

/** Writes a YAML document to a scratch file for promtool; returns its path. */
export function yamlFile(document: unknown): string {
  const file = path.join(scratch, `file-${(files += 1)}.yaml`);
  writeFileSync(file, stringify(document));
  return file;
}
