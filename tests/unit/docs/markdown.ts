// A Markdown file as GitHub shows it: the anchors its headings get, and the links it holds.
import GithubSlugger from 'github-slugger';
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';

export interface Link {
  readonly url: string;
  readonly line: number;
}

export interface MarkdownFile {
  /** `#anchor`s of its headings, slugged as GitHub does (a repeated heading gets `-1`, `-2`...). */
  readonly anchors: ReadonlySet<string>;
  /** Links, images and link definitions, with the line each starts on. */
  readonly links: readonly Link[];
}

export function readMarkdown(text: string): MarkdownFile {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  const links: Link[] = [];
  const visit = (node: Nodes): void => {
    if (node.type === 'heading') anchors.add(slugger.slug(toString(node)));
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition') {
      links.push({ url: node.url, line: node.position?.start.line ?? 0 });
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(fromMarkdown(text));
  return { anchors, links };
}

/** The anchor GitHub gives a heading of this text (the first of that name in its file). */
export const anchorOf = (heading: string): string => new GithubSlugger().slug(heading);
