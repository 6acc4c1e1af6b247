// The folders a Markdown file names in its code spans (`src/server/serving/files/`,
// `bench/floor/`), and whether each is there.
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import path from 'node:path';
import { succeeds } from '../../../tools/lib/command.mjs';
import { repositoryFiles, ROOT } from './repository';

export interface NamedFolder {
  readonly folder: string;
  readonly line: number;
}

/** A relative path ending in `/`: `[locale]/`, absolute paths, `~` and placeholders (`<suite>`) are no folder of the tree. */
const FOLDER = /^(?:\.?[\w@-][\w@.-]*\/)+$/;

/** Every folder named in a code span of `text`, with its line. */
export function foldersIn(text: string): NamedFolder[] {
  const named: NamedFolder[] = [];
  const visit = (node: Nodes): void => {
    if (node.type === 'inlineCode' && FOLDER.test(node.value)) named.push({ folder: node.value, line: node.position?.start.line ?? 0 });
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(fromMarkdown(text));
  return named;
}

/** Every folder of the tree (tracked or new files' folders), relative to the root. */
export function repositoryFolders(): Set<string> {
  const folders = new Set<string>();
  for (const file of repositoryFiles())
    for (let dir = path.posix.dirname(file); dir !== '.'; dir = path.posix.dirname(dir)) folders.add(dir);
  return folders;
}

/** Whether git ignores `folder`: what the commands write (`test-reports/`, `rollout-report/`, `.next/`). */
const ignored = (folder: string): boolean => succeeds('git', ['-C', ROOT, 'check-ignore', '--quiet', '--no-index', folder]);

/**
 * What is wrong with `folder` named in `doc`, or null when it is a folder of the tree, from
 * the root or the doc's own folder, or the end of one's path (`serving/files/`), or output git ignores.
 */
export function problemWithFolder(folder: string, doc: string, folders: ReadonlySet<string>): string | null {
  const name = folder.replace(/\/$/, '');
  const candidates = [name, path.posix.join(path.posix.dirname(doc), name)];
  if (candidates.some((candidate) => folders.has(candidate))) return null;
  if ([...folders].some((existing) => existing.endsWith(`/${name}`))) return null;
  return ignored(folder) ? null : `no folder ${folder} in the tree`;
}
