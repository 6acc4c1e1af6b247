import { describe, expect, it } from 'vitest';
import { commandsIn, declaredPrograms, packageJson, problemWithCommand } from './commands';
import { lineAt, readText, textFiles } from './repository';

const scripts = packageJson().scripts ?? {};

/** The commands `text` names that the project does not have, as `file:line: command: why`. */
function missingCommands(file: string, text = readText(file), programs = declaredPrograms()): string[] {
  return commandsIn(text).flatMap((command) => {
    const problem = problemWithCommand(command, scripts, programs);
    return problem ? [`${file}:${lineAt(text, command.index)}: ${command.kind} ${command.name}: ${problem}`] : [];
  });
}

describe('every command the docs and the code name', () => {
  const programs = declaredPrograms();

  it('exists: npm scripts in package.json, repository programs on disk, npx programs in declared packages', () => {
    expect(textFiles().flatMap((file) => missingCommands(file, readText(file), programs))).toEqual([]);
  });

  it('is a user command: each file of scripts/ runs as an npm script, and the README names every npm script', () => {
    const readme = readText('README.md');
    const runByScripts = Object.values(scripts).join('\n');
    const unrun = textFiles().filter((file) => /^scripts\/[^/]+\.[cm]?js$/.test(file) && !runByScripts.includes(`node ${file}`));
    // The command table shortens a family (`npm run cluster:up`, `cluster:down`) to its names in backticks.
    const unnamed = Object.keys(scripts).filter(
      (name) => !new RegExp(`(?:npm run |npm |\`)${name.replace(/[.:]/g, '\\$&')}[\` ]`).test(readme),
    );
    expect({ unrun, unnamed }).toEqual({ unrun: [], unnamed: [] });
  });
});

describe('the check itself', () => {
  it('names the file and line of a command the project does not have', () => {
    const text =
      'Run `npm run build`, then\n`npm run --silent no-such-script`, `npm test`,\n`node scripts/gone.mjs` and `npx --yes cowsay hi`.\n';
    expect(missingCommands('docs/example.md', text, new Set(['vitest']))).toEqual([
      'docs/example.md:2: npm no-such-script: package.json has no script "no-such-script"',
      'docs/example.md:3: node scripts/gone.mjs: scripts/gone.mjs does not exist',
      'docs/example.md:3: npx cowsay: no declared package installs "cowsay" (npx would download it)',
    ]);
  });
});
