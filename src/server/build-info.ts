import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The identity of the build, written by src/build/build-server.mjs beside the server. */
export interface BuildInfo {
  buildId: string;
  version: string;
  revision: string;
  builtAt: number;
}

const UNKNOWN: BuildInfo = { buildId: 'unknown', version: 'unknown', revision: 'unknown', builtAt: 0 };

export function readBuildInfo(dir: string): BuildInfo {
  const file = path.join(dir, 'build-info.json');
  if (!existsSync(file)) return UNKNOWN;
  return { ...UNKNOWN, ...(JSON.parse(readFileSync(file, 'utf8')) as Partial<BuildInfo>) };
}
