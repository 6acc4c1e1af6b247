import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';
import { markdownFiles, readText } from './repository';

const LONGEST = 12;

/** Paragraphs (list items' included) longer than LONGEST lines, as `file:line: n lines`; a table is no paragraph. */
function longParagraphs(file: string, text: string): string[] {
  const lines = text.split('\n');
  const long: string[] = [];
  const visit = (node: Nodes): void => {
    if (node.type === 'paragraph' && node.position) {
      const own = lines.slice(node.position.start.line - 1, node.position.end.line);
      if (own.length > LONGEST && !own.every((line) => line.trimStart().startsWith('|')))
        long.push(`${file}:${node.position.start.line}: ${own.length} lines`);
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(fromMarkdown(text));
  return long;
}

describe('docs/*.md', () => {
  it(`has no paragraph longer than ${LONGEST} lines: a reader finds their place`, () => {
    const docs = markdownFiles().filter((file) => /^docs\/[^/]+\.md$/.test(file));
    expect(docs.length).toBeGreaterThan(4);
    expect(docs.flatMap((file) => longParagraphs(file, readText(file)))).toEqual([]);
  });

  it('finds a long paragraph, in a list item too, and lets a table be', () => {
    const paragraph = Array.from({ length: 13 }, (_, index) => `line ${index}`).join('\n');
    const table = ['| a | b |', '|---|---|', ...Array.from({ length: 13 }, () => '| 1 | 2 |')].join('\n');
    const text = `# Doc\n\n${paragraph}\n\n- ${paragraph.replaceAll('\n', '\n  ')}\n\n${table}\n`;
    expect(longParagraphs('docs/x.md', text)).toEqual(['docs/x.md:3: 13 lines', 'docs/x.md:17: 13 lines']);
  });
});
