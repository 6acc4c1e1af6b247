import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorOf, readMarkdown } from './markdown';
import { docReferences } from './references';
import { lineAt, markdown, markdownFiles, problemWith, readText, textFiles } from './repository';

/** A scheme (https:, mailto:) or a protocol-relative URL: outside the repository. */
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** The relative links of a Markdown file that lead nowhere, as `file:line: link: why`. */
function brokenLinks(file: string, parsed = markdown(file)): string[] {
  const dir = path.posix.dirname(file);
  return parsed.links
    .filter(({ url }) => !EXTERNAL.test(url))
    .flatMap(({ url, line }) => {
      const problem = problemWith(url, { base: [dir], self: file, selfAnchors: parsed.anchors });
      return problem ? [`${file}:${line}: ${url}: ${problem}`] : [];
    });
}

/** The doc sections a file names outside links that do not exist, as `file:line: reference: why`. */
function brokenReferences(file: string, text = readText(file)): string[] {
  const dir = path.posix.dirname(file);
  // A Markdown file's own paths are relative to it; a comment's, as a rule, to the root.
  const base = file.endsWith('.md') ? [dir, '.'] : ['.', dir];
  return docReferences(text).flatMap(({ target, index }) => {
    const problem = problemWith(target, { base, self: file });
    return problem ? [`${file}:${lineAt(text, index)}: ${target}: ${problem}`] : [];
  });
}

describe('the docs', () => {
  it('have relative links and #anchors that resolve (README.md, docs/, the chart README, tools/README.md)', () => {
    expect(markdownFiles()).toEqual(
      expect.arrayContaining(['README.md', 'docs/architecture.md', 'helm/meridian/README.md', 'tools/README.md']),
    );
    expect(markdownFiles().flatMap((file) => brokenLinks(file))).toEqual([]);
  });

  it('are named by existing files and sections wherever a file points at one (code comments, configs, prose)', () => {
    expect(textFiles().flatMap((file) => brokenReferences(file))).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('compute anchors as GitHub slugs headings', () => {
    const { anchors } = readMarkdown(
      '# Meridian\n## TRUST_PROXY by proxy setup\n## What `cluster:up` does\n## Tests on it\n## Tests on it\n',
    );
    expect([...anchors]).toEqual(['meridian', 'trust_proxy-by-proxy-setup', 'what-clusterup-does', 'tests-on-it', 'tests-on-it-1']);
    expect(anchorOf('Languages and URLs')).toBe('languages-and-urls');
  });

  it('name the file and line of a broken link', () => {
    const doc = readMarkdown(
      '# Example\n\nSee [Docker](operations.md#dockr), [above](#example), [elsewhere](https://example.com).\n\n![chart](no-such.png)\n',
    );
    expect(brokenLinks('docs/example.md', doc)).toEqual([
      'docs/example.md:3: operations.md#dockr: docs/operations.md has no heading #dockr',
      'docs/example.md:5: no-such.png: no-such.png does not exist',
    ]);
  });

  it('name the file and line of a broken doc section named outside a link', () => {
    const text =
      "// Lint rules (docs/architecture.md).\n// See docs/operations.md#no-such-section\n# and the README's Docker\n# section.\n";
    expect(brokenReferences('tools/example.mjs', text)).toEqual([
      'tools/example.mjs:2: docs/operations.md#no-such-section: docs/operations.md has no heading #no-such-section',
      'tools/example.mjs:3: README.md#docker: README.md has no heading #docker',
    ]);
    expect(problemWith('../docs/missing.md', { base: ['tools'], self: 'tools/README.md' })).toBe('../docs/missing.md does not exist');
    expect(problemWith('#two-commands', { base: ['.'], self: 'README.md' })).toBeNull();
  });
});
