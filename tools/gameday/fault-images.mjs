// The faulty builds: images layered on the good one, each with one file broken or removed
// (faults.mjs says which), tagged `<good tag>-gameday-<fault>`. On the local cluster they are
// imported into its containerd, as `npm run cluster:image` does; on another cluster they are
// pushed to the good image's repository, which its nodes pull from.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBinaries } from '../cluster-binaries.mjs';
import { ctrArgs, importDockerImages } from '../cluster/images.mjs';
import { recordedNodes } from '../cluster/node-count.mjs';
import { run } from '../lib/command.mjs';

/**
 * `repository:tag` split at the tag's colon (a registry's port has one too).
 * @param {string} image
 */
export function parseImage(image) {
  const match = /^(.+?)(?::([\w][\w.-]{0,127}))?$/.exec(image);
  if (!match || image.includes('@') || !match[2])
    throw new Error(`gameday: --image wants repository:tag (the tag is the build id), got ${JSON.stringify(image)}`);
  return { repository: /** @type {string} */ (match[1]), tag: match[2] };
}

/** @param {string} goodTag @param {string} faultId */
export const faultTag = (goodTag, faultId) => `${goodTag}-gameday-${faultId}`.slice(0, 128);

/**
 * The Dockerfile of one fault's image: the good image, its `layer` run as root in the app's
 * folder (each step in exec form, no shell quoting between us and the command), and the
 * image's own user back.
 * @param {string} base @param {string[][]} layer
 */
export function faultDockerfile(base, layer) {
  return [`FROM ${base}`, 'USER 0', ...layer.map((step) => `RUN ${JSON.stringify(step)}`), 'USER 10001:10001', ''].join('\n');
}

/**
 * The image of `faultId`'s build for a canary: the good image's tag (a canary's analysis is
 * scoped by the tag, its build id) under a repository of its own, `<repository>-<fault>`.
 * @param {string} image @param {string} faultId
 */
export function canaryFaultImage(image, faultId) {
  const { repository, tag } = parseImage(image);
  return `${repository}-${faultId}:${tag}`;
}

/**
 * Builds each fault's image from `image` (which must be in the local Docker engine) and
 * makes it available to the cluster; resolves with the images made, by fault id. Each is
 * named `<repository>:<good tag>-gameday-<fault>` unless `target` names it otherwise.
 * `checkpoint` is called before each step, and throws to stop there.
 * @param {{ image: string, faults: { id: string, layer?: string[][] }[], local: boolean, log: (line: string) => void, checkpoint?: () => void, target?: (faultId: string) => string }} options
 * @returns {Promise<Record<string, string>>}
 */
export async function makeFaultImages({ image, faults, local, log, checkpoint = () => {}, target: nameOf }) {
  const { repository, tag } = parseImage(image);
  const work = mkdtempSync(path.join(tmpdir(), 'meridian-gameday-images-'));
  /** @type {Record<string, string>} */
  const images = {};
  try {
    for (const fault of faults) {
      if (!fault.layer) continue;
      checkpoint();
      const target = nameOf?.(fault.id) ?? `${repository}:${faultTag(tag, fault.id)}`;
      const context = path.join(work, fault.id);
      rmSync(context, { recursive: true, force: true });
      writeFileSync(path.join(work, `${fault.id}.Dockerfile`), faultDockerfile(image, fault.layer));
      log(`gameday: building ${target}`);
      await run('docker', ['build', '--quiet', '--tag', target, '--file', path.join(work, `${fault.id}.Dockerfile`), work]);
      images[fault.id] = target;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const built = Object.values(images);
  checkpoint();
  if (local) {
    log(`gameday: importing ${built.length} images into the local cluster`);
    // One archive: the layers they share with the good image travel once.
    await importDockerImages(ensureBinaries(log, ['containerd']), [image, ...built]);
  } else {
    for (const target of built) {
      log(`gameday: pushing ${target}`);
      await run('docker', ['push', target]);
    }
  }
  return images;
}

/**
 * The name containerd gives a Docker image it imported: Docker Hub's host and library
 * spelled out, as the Docker engine leaves them implicit.
 * @param {string} image
 */
export function containerdName(image) {
  const [first, ...rest] = image.split('/');
  if (rest.length === 0) return `docker.io/library/${image}`;
  return /[.:]/.test(first ?? '') || first === 'localhost' ? image : `docker.io/${image}`;
}

/**
 * Removes the fault images from the local Docker engine (and from the local cluster's
 * containerd, where they were imported).
 * @param {{ images: string[], local: boolean }} options
 */
export async function removeFaultImages({ images, local }) {
  if (images.length === 0) return;
  await run('docker', ['image', 'rm', '--force', ...images]).catch(() => {});
  if (!local) return;
  const { ctr } = ensureBinaries(() => {}, ['containerd']);
  const refs = images.map(containerdName);
  for (const node of recordedNodes()) await run(/** @type {string} */ (ctr), ctrArgs(node, ['images', 'rm', ...refs])).catch(() => {});
}
