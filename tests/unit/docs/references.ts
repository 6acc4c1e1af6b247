// Where a file names a doc section outside a Markdown link: a path to a Markdown file with
// an optional #anchor ("see docs/operations.md#docker"), or a section by its heading ("the
// README's Docker section"), in code comments and prose alike.
import { anchorOf } from './markdown';

export interface Reference {
  /** `path` or `path#anchor`, as a link would hold it. */
  readonly target: string;
  /** Where in the text it was named. */
  readonly index: number;
}

// A bare file name in quotes ('runbooks.md') is a piece of a path code builds, not a reference.
const MARKDOWN_PATH = /(?<![\w./-])(?:\.\.?\/)*(?:[\w.-]+\/)*[\w.-]+\.md(?:#[\w-]+)?/g;
const PATH_PIECE = /^['"\x60][\w.-]+\.md['"\x60]$/;

// The words of a section's name may run over a comment's line break (`//`, `#`, ` *`).
const GAP = String.raw`(?:[ \t]|\n[ \t]*(?:\/\/|#|\*)?[ \t]*)+`;
const WORD = String.raw`[\w\x60-]+`;
const NAMED_SECTION = new RegExp(
  String.raw`\b(chart README|README(?:\.md)?|(?:[\w.-]+\/)*[\w.-]+\.md)'s${GAP}(${WORD}(?:${GAP}${WORD}){0,5}?)${GAP}section\b`,
  'g',
);
const DOCS_BY_NAME: Record<string, string> = { README: 'README.md', 'chart README': 'helm/meridian/README.md' };

/** Every Markdown file, and every section by name, that `text` points at. */
export function docReferences(text: string): Reference[] {
  const paths = [...text.matchAll(MARKDOWN_PATH)]
    .filter(({ 0: target, index }) => !PATH_PIECE.test(text.slice(index - 1, index + target.length + 1)))
    .map((match) => ({ target: match[0], index: match.index }));
  const sections = [...text.matchAll(NAMED_SECTION)].map((match) => {
    const [, doc = '', name = ''] = match;
    const heading = name.replace(new RegExp(GAP, 'g'), ' ').replaceAll('\x60', '');
    return { target: `${DOCS_BY_NAME[doc] ?? doc}#${anchorOf(heading)}`, index: match.index };
  });
  return [...paths, ...sections];
}
