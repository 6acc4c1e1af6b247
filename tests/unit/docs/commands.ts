// The commands a file tells its reader to run, and what the project declares to run them:
// package.json's scripts and the programs its packages install.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './repository';

export interface Command {
  readonly kind: 'npm' | 'node' | 'npx';
  /** The script's name, the file's path or the program's name. */
  readonly name: string;
  readonly index: number;
}

const PATTERNS: Record<Command['kind'], RegExp> = {
  // `npm run build`, `npm run --silent cluster:up`, `npm start`, `npm test`.
  npm: /\bnpm (?:run(?: --?[\w-]+)* ([\w:.-]+)|(start|test)\b)/g,
  // A program of the repository: `node scripts/image.mjs`, `node tools/node-base.mjs`.
  node: /\bnode ((?:scripts|tools|docker|tests|src)\/[\w./-]+\.[cm]?js)\b/g,
  // `npx vitest run ...`: the program, after npx's own options.
  npx: /\bnpx(?: --?[\w-]+)* (@?[\w./-]*[\w])/g,
};

/** Every npm script, repository program and npx program named in `text`. */
export function commandsIn(text: string): Command[] {
  return Object.entries(PATTERNS).flatMap(([kind, pattern]) =>
    [...text.matchAll(pattern)].map((match) => ({
      kind: kind as Command['kind'],
      name: match[1] ?? match[2] ?? '',
      index: match.index,
    })),
  );
}

interface PackageJson {
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  bin?: string | Record<string, string>;
}

const readPackage = (file: string): PackageJson => JSON.parse(readFileSync(file, 'utf8'));

export const packageJson = (): PackageJson => readPackage(path.join(ROOT, 'package.json'));

/** The programs `npx` finds among the packages package.json declares: each one's `bin`. */
export function declaredPrograms(): Set<string> {
  const { dependencies = {}, devDependencies = {} } = packageJson();
  return new Set(
    Object.keys({ ...dependencies, ...devDependencies }).flatMap((name) => {
      const manifest = path.join(ROOT, 'node_modules', name, 'package.json');
      if (!existsSync(manifest)) return [];
      const { bin } = readPackage(manifest);
      if (bin === undefined) return [];
      return typeof bin === 'string' ? [name.replace(/^@[^/]+\//, '')] : Object.keys(bin);
    }),
  );
}

/** What is wrong with `command`, or null when the project has it. */
export function problemWithCommand(command: Command, scripts: Record<string, string>, programs: ReadonlySet<string>): string | null {
  switch (command.kind) {
    case 'npm':
      return command.name in scripts ? null : `package.json has no script "${command.name}"`;
    case 'node':
      return existsSync(path.join(ROOT, command.name)) ? null : `${command.name} does not exist`;
    case 'npx':
      return programs.has(command.name) ? null : `no declared package installs "${command.name}" (npx would download it)`;
  }
}
