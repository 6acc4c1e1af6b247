// `npm run typecheck`: TypeScript's check of the whole tree as tsconfig.json declares it:
// src/ and tests/ in TypeScript, and the JavaScript of scripts/, tools/, docker/, the
// build and the root configs through their JSDoc (checkJs), every file of them. (helm/
// meridian/files/helm-test.js, a plain script the helm test pod runs, is outside
// tsconfig.json: as a script, not a module, its names would be global to every file.)
import path from 'node:path';
import ts from 'typescript';
import { ROOT } from '../tools/lib/app-server.mjs';

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
];

const host = { getCanonicalFileName: (/** @type {string} */ name) => name, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
if (diagnostics.length > 0) {
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  console.log(format(diagnostics, host));
  console.log(`typecheck: ${diagnostics.length} error(s)`);
  process.exit(1);
}
const ours = program.getSourceFiles().filter((file) => !file.isDeclarationFile && !file.fileName.includes('/node_modules/'));
console.log(`typecheck: ${ours.length} files, no errors`);
