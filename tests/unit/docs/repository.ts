// The repository as the docs tests read it: its text files, its Markdown files parsed, and
// whether a path with an #anchor leads somewhere.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { runSync } from '../../../tools/lib/command.mjs';
import { type MarkdownFile, readMarkdown } from './markdown';

export const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Not text, generated, or this folder's own examples of broken references. */
const SKIPPED = [/\.(png|ico)$/, /(^|\/)package-lock\.json$/, /(^|\/)go\.(sum|mod)$/, /^tests\/unit\/docs\//];

/** Every file git tracks or would (untracked, not ignored), relative to the root. */
export function repositoryFiles(): string[] {
  const listed = runSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT }).stdout;
  return [...new Set(listed.split('\0'))].filter((file) => file && existsSync(path.join(ROOT, file))).sort();
}

/** The text files a reference or a command may stand in. */
export const textFiles = (): string[] => repositoryFiles().filter((file) => !SKIPPED.some((pattern) => pattern.test(file)));

/** The Markdown files: README.md, docs/, the chart's and tools/' READMEs. */
export const markdownFiles = (): string[] => textFiles().filter((file) => file.endsWith('.md'));

export const readText = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

const parsed = new Map<string, MarkdownFile>();
export function markdown(file: string): MarkdownFile {
  let result = parsed.get(file);
  if (!result) parsed.set(file, (result = readMarkdown(readText(file))));
  return result;
}

/** The 1-based line of `index` in `text`. */
export const lineAt = (text: string, index: number): number => text.slice(0, index).split('\n').length;

interface Origin {
  /** Folders relative to the root that a path is read from, in turn. */
  readonly base: readonly string[];
  /** The file the target stands in, whose own headings `#anchor` alone names. */
  readonly self: string;
  readonly selfAnchors?: ReadonlySet<string>;
}

/**
 * What is wrong with `target` (`path`, `path#anchor` or `#anchor`), or null when it leads
 * to a file or folder and, for a Markdown file, to one of its headings.
 */
export function problemWith(target: string, { base, self, selfAnchors }: Origin): string | null {
  const hash = target.indexOf('#');
  const linkPath = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
  if (!linkPath) return anchor === null || (selfAnchors ?? markdown(self).anchors).has(anchor) ? null : `${self} has no heading #${anchor}`;
  const file = base
    .map((dir) => path.posix.normalize(path.posix.join(dir, linkPath)))
    .find((candidate) => !candidate.startsWith('../') && existsSync(path.join(ROOT, candidate)));
  if (file === undefined) return `${linkPath} does not exist`;
  if (anchor === null || !file.endsWith('.md') || statSync(path.join(ROOT, file)).isDirectory()) return null;
  return markdown(file).anchors.has(anchor) ? null : `${file} has no heading #${anchor}`;
}
