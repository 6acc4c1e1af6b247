import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The lint's import/no-cycle sees the imports that run; a circle closed by a type import
 * (`import type`) is one it never reports, and still leaves a reader no end to start
 * from. This walks every import of src/, types included, as TypeScript resolves them.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE = /\.(ts|tsx|mjs)$/;

function compilerOptions(): ts.CompilerOptions {
  const configFile = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), (file) => ts.sys.readFile(file));
  return ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT).options;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Each file of src/ and the files of src/ it imports, in any way. */
function importGraph(): Map<string, string[]> {
  const options = compilerOptions();
  const files = sourceFiles(path.join(ROOT, 'src'));
  const inSource = new Set(files);
  return new Map(
    files.map((file) => {
      const imported = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles;
      const targets = imported
        .map(({ fileName }) => ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule?.resolvedFileName)
        .filter((target): target is string => target !== undefined && inSource.has(target));
      return [file, [...new Set(targets)]];
    }),
  );
}

/** Every circle of `graph`, each as the files around it, the first repeated at the end. */
function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const circles: string[][] = [];
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (file: string) => {
    const at = onPath.indexOf(file);
    if (at !== -1) {
      circles.push([...onPath.slice(at), file]);
      return;
    }
    if (done.has(file)) return;
    onPath.push(file);
    for (const target of graph.get(file) ?? []) visit(target);
    onPath.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return circles;
}

describe('imports of src/', () => {
  it('finds a circle, a type import closing it', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circlesOf(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });

  it('go one way between sibling folders: no folder reaches itself through the folders beside it', () => {
    // Each import from one folder's subtree into a sibling's, for every folder of src/.
    const edges = new Map<string, Set<string>>();
    for (const [file, targets] of importGraph()) {
      for (const target of targets) {
        const [from, to] = [path.relative(ROOT, file).split(path.sep), path.relative(ROOT, target).split(path.sep)];
        let depth = 0;
        while (from[depth] === to[depth]) depth += 1;
        // Both below a common folder, in different subfolders of it (not a file of it).
        if (depth === 0 || depth >= from.length - 1 || depth >= to.length - 1) continue;
        const [source, destination] = [from.slice(0, depth + 1).join('/'), to.slice(0, depth + 1).join('/')];
        edges.set(source, (edges.get(source) ?? new Set()).add(destination));
      }
    }
    const graph = new Map([...edges].map(([folder, targets]) => [folder, [...targets]]));
    expect(circlesOf(graph).map((circle) => circle.join(' → '))).toEqual([]);
  });

  it('go one way: no module reaches itself, through type imports either', () => {
    const circles = circlesOf(importGraph()).map((circle) => circle.map((file) => path.relative(ROOT, file)).join(' → '));
    expect(circles).toEqual([]);
  });
});
