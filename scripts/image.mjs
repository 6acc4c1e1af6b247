// `npm run image`: builds meridian:<BUILD_ID> from the Dockerfile, BUILD_ID from
// the environment, else the short commit (the rule of scripts/build-server.mjs).
// The base is NODE_IMAGE, by default the Dockerfile's (the official Node LTS slim
// image); when it is neither here nor pullable (no registry reachable), the local
// base that docker/node-base.mjs makes stands in.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureNodeBase } from '../docker/node-base.mjs';
import { ROOT } from '../tools/lib/app-server.mjs';
import { HELP, parseCommand } from '../tools/lib/cli.mjs';
import { buildRevision, resolveBuildId } from '../src/build/build-identity.mjs';
import { run, runSync, succeeds } from '../tools/lib/command.mjs';
import { engineAnswers } from '../tools/docker-engine.mjs';

const USAGE = `Usage: [BUILD_ID=<id>] [NODE_IMAGE=<image>] npm run image

Builds the Docker image meridian:<BUILD_ID> from the Dockerfile. BUILD_ID: the build's identity
(default: the short commit). NODE_IMAGE: the base (default: the Dockerfile's); when it is neither
here nor pullable, the local base of docker/node-base.mjs stands in.`;
parseCommand('image', USAGE, () => parseArgs({ options: { help: HELP } }));

/** The Dockerfile's own default, so the two never disagree. */
function defaultNodeImage() {
  const match = /^ARG NODE_IMAGE=(\S+)$/m.exec(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
  if (!match?.[1]) throw new Error('image: the Dockerfile declares no `ARG NODE_IMAGE=<default>`');
  return match[1];
}

/**
 * `wanted` when it is here or can be pulled, else the local base.
 * @param {string} wanted
 */
async function usableNodeImage(wanted) {
  if (succeeds('docker', ['image', 'inspect', wanted])) return wanted;
  try {
    await run('docker', ['pull', wanted], { echo: true });
    return wanted;
  } catch (error) {
    const reason = String(error instanceof Error ? error.message : error)
      .trim()
      .split('\n')
      .at(-1);
    console.log(`\n>>> image: ${wanted} cannot be pulled (${reason}); building on the local base from docker/node-base.mjs instead\n`);
    return ensureNodeBase();
  }
}

/** The repository's address for the source label, without any credentials in it. */
function sourceUrl() {
  try {
    const remote = runSync('git', ['remote', 'get-url', 'origin'], { cwd: ROOT }).stdout;
    return remote.trim().replace(/\/\/[^/@]*@/, '//');
  } catch {
    return '';
  }
}

if (!engineAnswers()) {
  console.error('image: no Docker engine answers `docker info`; start one first');
  process.exit(1);
}
const revision = buildRevision(process.env, ROOT);
const buildId = resolveBuildId(process.env, revision);
const tag = `meridian:${buildId}`;
const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const buildArgs = {
  NODE_IMAGE: await usableNodeImage(process.env.NODE_IMAGE?.trim() || defaultNodeImage()),
  BUILD_ID: buildId,
  REVISION: revision === 'unknown' ? '' : revision,
  VERSION: version,
  SOURCE: sourceUrl(),
  CREATED: new Date().toISOString(),
};
console.log(`image: building ${tag} on ${buildArgs.NODE_IMAGE}`);
await run(
  'docker',
  ['build', '--tag', tag, ...Object.entries(buildArgs).flatMap(([name, value]) => ['--build-arg', `${name}=${value}`]), ROOT],
  { echo: true },
);
console.log(`image: built ${tag}`);
