// Lint: the one-way imports between the rooms of src/ (docs/architecture.md) and between the
// commands, the harness and the tests (docs/testing.md#where-harness-code-lives).
import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** eslint-plugin-import, as eslint-config-next brings it (one copy, so the flat config sees one plugin). */
const importPlugin = nextCoreWebVitals.find((block) => block.plugins?.import)?.plugins?.import;
if (!importPlugin) throw new Error('eslint.config.js: eslint-config-next no longer brings eslint-plugin-import; declare it');

const room = (/** @type {string} */ name) => [`@/${name}/*`, `@/${name}`];

/**
 * The rule `no-restricted-imports` with these patterns.
 * @param {...{ group?: string[], regex?: string, message: string }} patterns
 * @returns {import('eslint').Linter.RulesRecord}
 */
const restrictedImports = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

/** Which rooms each room may not import. */
const FORBIDDEN = {
  shared: ['app', 'ui', 'i18n', 'freshness', 'server'],
  i18n: ['app', 'ui', 'freshness', 'server'],
  freshness: ['app', 'ui', 'i18n', 'server'],
  ui: ['app', 'freshness', 'server'],
  app: ['server'],
};

/** The product and its build stand on their own: the harness and the tests are never part of what ships. */
const HARNESS = {
  group: ['**/tools/*', '**/tools/**', '**/tests/*', '**/tests/**'],
  message: 'Product code and its build import neither tools/ (the harness) nor tests/.',
};

/** scripts/ holds the commands a user runs and nothing else: what a test or another command needs lives in tools/. */
const COMMANDS = { group: ['**/scripts/*', '**/scripts/**'], message: 'scripts/ holds commands only: import what you need from tools/.' };
/** docker/ holds the local stack's configuration files, read as files: no program lives there, so nothing imports it. */
const CONFIG_FILES = {
  group: ['**/docker/*', '**/docker/**'],
  message: 'docker/ holds configuration files, not programs: what the harness shares lives in tools/.',
};
/** What the product and its build never import; a block that sets its own restrictions lists these again (a later block replaces the rule's options). */
const OUTSIDE_PRODUCT = [HARNESS, COMMANDS, CONFIG_FILES];
const SIBLING_COMMANDS = { regex: '^\\./', message: 'A command imports no other command: what both need lives in tools/.' };

/** The server may use the pure locale rules (routing, detection, namespaces), never what the site renders. */
const SERVER_USES = {
  group: [...room('app'), ...room('ui'), ...room('freshness'), '@/i18n/server', '@/i18n/proxy', '@/i18n/client-messages'],
  message: 'src/server uses only shared and the pure locale rules of src/i18n.',
};

export default tseslint.config(
  { ignores: ['**/.next/**', 'node_modules/**', 'bench-results/**', 'test-results/**', 'next-env.d.ts'] },
  ...tseslint.configs.recommended,
  // Next's own rules with React's (eslint-config-next bundles eslint-plugin-react-hooks'
  // recommended set, the React Compiler rules included), on the site's code only.
  // Its global ignores give way to ours above.
  ...nextCoreWebVitals.filter((block) => !block.ignores).map((block) => ({ ...block, files: ['src/**/*.{ts,tsx}'] })),
  {
    files: ['src/**/*.{ts,tsx}'],
    // A missed effect dependency is a stale-value bug, not a style note.
    rules: { 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // No import circles in the product: a module that reaches itself through its imports
    // may run before what it needs is defined, and a reader finds no end to start from.
    // What two modules both need goes down to a third (src/shared/ between rooms).
    files: ['src/**/*.{ts,tsx,mjs}'],
    plugins: { import: importPlugin },
    // Without its strongly-connected-components shortcut, which fails on a file not on disk
    // (the lint's own tests lint such files); src/ is small enough to walk in full.
    rules: { 'import/no-cycle': ['error', { disableScc: true }] },
  },
  {
    // Every file of the product and of its build.
    files: ['src/**/*.{ts,tsx,mjs}', 'next.config.js'],
    rules: restrictedImports(...OUTSIDE_PRODUCT),
  },
  ...Object.entries(FORBIDDEN).map(([name, forbidden]) => ({
    files: [`src/${name}/**/*.{ts,tsx}`],
    rules: restrictedImports(
      {
        group: forbidden.flatMap(room),
        message: `src/${name} may not import from ${forbidden.join(', ')}: imports between rooms go one way.`,
      },
      { group: ['../*'], message: 'Import across folders with @/, so the rooms stay visible.' },
      ...OUTSIDE_PRODUCT,
    ),
  })),
  {
    files: ['src/server/**/*.ts'],
    rules: restrictedImports(SERVER_USES, ...OUTSIDE_PRODUCT),
  },
  {
    // Serving calls observability, never the other way round.
    files: ['src/server/observability/**/*.ts'],
    rules: restrictedImports(SERVER_USES, ...OUTSIDE_PRODUCT, {
      group: ['@/server/serving/*', '../serving/*'],
      message: 'src/server/observability may not import src/server/serving: serving calls observability.',
    }),
  },
  {
    // The tooling around the site: typescript-eslint's recommended set (above) in Node's globals.
    files: [
      'scripts/**/*.{js,mjs,cjs,ts}',
      'tests/**/*.{js,mjs,cjs,ts,tsx}',
      'tools/**/*.{js,mjs,cjs,ts}',
      'src/build/**/*.mjs',
      '*.{js,mjs,cjs,ts}',
    ],
    languageOptions: { globals: globals.node },
    plugins: { import: importPlugin },
    rules: {
      // Leaving fields out by destructuring ({ pid, ...rest }) is how the tests drop what varies.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      // Every package imported is one package.json declares, never one that happens to be hoisted.
      'import/no-extraneous-dependencies': ['error', { devDependencies: true }],
    },
  },
  {
    // One rule for harness code (docs/testing.md): scripts/ are commands, tools/ what commands
    // and tests share, tests/ the suites and their support. Nothing imports a command.
    files: ['scripts/**/*.{js,mjs,cjs,ts}'],
    rules: restrictedImports(COMMANDS, SIBLING_COMMANDS, CONFIG_FILES, {
      group: ['**/tests/*', '**/tests/**'],
      message: 'scripts/ may not import tests/: move what both need to tools/.',
    }),
  },
  {
    files: ['tests/**/*.{js,mjs,cjs,ts,tsx}'],
    rules: restrictedImports(COMMANDS, CONFIG_FILES),
  },
  {
    files: ['tools/**/*.{js,mjs,cjs,ts}'],
    rules: restrictedImports(COMMANDS, CONFIG_FILES, { group: ['**/tests/*', '**/tests/**'], message: 'tools/ may not import tests/.' }),
  },
  {
    // CommonJS on purpose (the bench's bare server and its preload), so require is how they import.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/proxy.ts'],
    rules: restrictedImports(
      { group: [...room('ui'), ...room('server'), ...room('freshness')], message: 'The proxy wires the i18n routing, nothing else.' },
      ...OUTSIDE_PRODUCT,
    ),
  },
);
