// `npm run typecheck`: TypeScript's check of the whole tree as tsconfig.json declares it:
// src/ and tests/ in TypeScript, and the JavaScript of scripts/, tools/, docker/, the
// build and the root configs through their JSDoc (checkJs). tsc itself cannot leave a
// file out that another file imports, so this runs its compiler and holds back the
// errors of the files excluded below; their types still reach the files importing them.
import path from 'node:path';
import ts from 'typescript';
import { ROOT } from '../tools/lib/app-server.mjs';

/**
 * Excluded until typed: each line is a folder (ending in `/`) or a file; delete it once its files
 * check. (helm/meridian/files/helm-test.js, a plain script the helm test pod runs, is outside
 * tsconfig.json: as a script, not a module, its names would be global to every file.)
 */
const EXCLUDED_UNTIL_TYPED = [
  'tools/cluster/',
  'tools/cluster-binaries.mjs',
  'tools/debian-packages.mjs',
  'tools/docker-engine.mjs',
  'tools/kubernetes-clients.mjs',
];

/** @param {ts.Diagnostic} diagnostic */
function reported(diagnostic) {
  if (!diagnostic.file) return true;
  const file = path.relative(ROOT, diagnostic.file.fileName).split(path.sep).join('/');
  if (!/\.[cm]?js$/.test(file)) return true;
  return !EXCLUDED_UNTIL_TYPED.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry));
}

const config = ts.getParsedCommandLineOfConfigFile(
  path.join(ROOT, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  },
);
if (!config) throw new Error('typecheck: tsconfig.json could not be read');
const program = ts.createIncrementalProgram({
  rootNames: config.fileNames,
  options: config.options,
  projectReferences: config.projectReferences,
  configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
});
const diagnostics = [
  ...program.getConfigFileParsingDiagnostics(),
  ...program.getOptionsDiagnostics(),
  ...program.getGlobalDiagnostics(),
  ...program.getSyntacticDiagnostics(),
  ...program.getSemanticDiagnostics(),
  // With noEmit, this writes the incremental build info only (tsconfig.tsbuildinfo).
  ...program.emit().diagnostics,
].filter(reported);

const host = { getCanonicalFileName: (/** @type {string} */ name) => name, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
if (diagnostics.length > 0) {
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  console.log(format(diagnostics, host));
  console.log(`typecheck: ${diagnostics.length} error(s)`);
  process.exit(1);
}
const ours = program.getSourceFiles().filter((file) => !file.isDeclarationFile && !file.fileName.includes('/node_modules/'));
console.log(`typecheck: ${ours.length} files, no errors (excluded until typed: ${EXCLUDED_UNTIL_TYPED.join(', ')})`);
