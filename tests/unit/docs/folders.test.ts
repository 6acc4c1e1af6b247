import { describe, expect, it } from 'vitest';
import { foldersIn, problemWithFolder, repositoryFolders } from './folders';
import { markdownFiles, readText } from './repository';

/** The folders `text` names that the tree lacks, as `file:line: why`. */
function missingFolders(file: string, text: string, folders: ReadonlySet<string>): string[] {
  return foldersIn(text).flatMap(({ folder, line }) => {
    const problem = problemWithFolder(folder, file, folders);
    return problem ? [`${file}:${line}: ${problem}`] : [];
  });
}

describe('every folder the docs name', () => {
  it('exists in the tree (from the root, from the doc, or as the end of a path), or is output git ignores', () => {
    const folders = repositoryFolders();
    expect(markdownFiles().flatMap((file) => missingFolders(file, readText(file), folders))).toEqual([]);
  });
});

describe('the check itself', () => {
  it('names the file and line of a folder the tree lacks, and passes the others', () => {
    const text =
      'The rooms: `src/server/`, `serving/files/` and `static-assets/`,\n`bench/floor/` from tools/, `test-reports/cluster/`, `[locale]/`, `~/.cache/x/`, `/_next/`.\n';
    expect(missingFolders('tools/README.md', text, repositoryFolders())).toEqual([
      'tools/README.md:1: no folder static-assets/ in the tree',
    ]);
  });
});
