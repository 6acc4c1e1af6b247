import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/** The project's own eslint.config.js, as `npm run lint` loads it. */
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../..') });

// Loading the config's plugins and the TypeScript parser takes seconds on a busy machine: once, before the tests.
beforeAll(() => eslint.lintText('export {};\n', { filePath: 'src/ui/lint-fixture/lint-fixture.tsx' }), 60_000);

/** The rules that fail the lint for this code, were it a component in src/ui. */
async function errorsIn(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: 'src/ui/lint-fixture/lint-fixture.tsx' });
  return (result?.messages ?? []).filter((message) => message.severity === 2).map((message) => message.ruleId ?? message.message);
}

describe('eslint.config.js on src/', () => {
  it('passes a component that keeps the rules', async () => {
    const code = `'use client';
import Link from 'next/link';
import { useState } from 'react';

export function Counter() {
  const [count, setCount] = useState(0);
  return <Link href="/about" onClick={() => setCount(count + 1)}>{count}</Link>;
}
`;
    expect(await errorsIn(code)).toEqual([]);
  });

  it("runs React's rules of hooks", async () => {
    const code = `'use client';
import { useState } from 'react';

export function Counter({ shown }: { shown: boolean }) {
  if (!shown) return null;
  const [count] = useState(0);
  return <p>{count}</p>;
}
`;
    expect(await errorsIn(code)).toContain('react-hooks/rules-of-hooks');
  });

  it('fails on a missed effect dependency', async () => {
    const code = `'use client';
import { useEffect } from 'react';

export function Title({ title }: { title: string }) {
  useEffect(() => {
    document.title = title;
  }, []);
  return null;
}
`;
    expect(await errorsIn(code)).toContain('react-hooks/exhaustive-deps');
  });

  it("runs the React Compiler's rules", async () => {
    const code = `'use client';
import { useEffect, useState } from 'react';

export function Echo({ value }: { value: string }) {
  const [shown, setShown] = useState(value);
  useEffect(() => setShown(value), [value]);
  return <p>{shown}</p>;
}
`;
    expect(await errorsIn(code)).toContain('react-hooks/set-state-in-effect');
  });

  it("runs Next's core-web-vitals rules", async () => {
    const code = `export function Nav() {
  return <a href="/about">About</a>;
}
`;
    expect(await errorsIn(code)).toContain('@next/next/no-html-link-for-pages');
  });

  it('fails on an import circle', async () => {
    // serve-file.ts imports this file: were it to import serve-file.ts back, that is a circle.
    const code = "import { serveFile } from '@/server/serving/files/serve-file';\n\nexport const serve = serveFile;\n";
    const [result] = await eslint.lintText(code, { filePath: 'src/server/serving/header-list.ts' });
    expect(result?.messages.map((message) => message.ruleId)).toContain('import/no-cycle');
  });

  it('keeps the one-way imports between rooms', async () => {
    const code = `import { config } from '@/server/config';

export const port = config.port;
`;
    expect(await errorsIn(code)).toContain('no-restricted-imports');
  });
});

/** The rules that fail the lint for this code at `filePath` in the tooling around the site. */
async function toolingErrorsIn(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((message) => message.severity === 2).map((message) => message.ruleId ?? message.message);
}

describe('eslint.config.js on scripts/, tests/ and tools/', () => {
  it("runs typescript-eslint's recommended rules on scripts, tests and tools", async () => {
    for (const filePath of ['scripts/bench/lint-fixture.mjs', 'tests/support/lint-fixture.ts', 'tools/lib/lint-fixture.mjs']) {
      expect(await toolingErrorsIn('export const value = (unused) => process.cwd();\n', filePath)).toContain(
        '@typescript-eslint/no-unused-vars',
      );
    }
  });

  it('fails on a package package.json does not declare, even when npm hoisted it', async () => {
    const code = "import retry from 'retry';\nimport { lock } from 'proper-lockfile';\nexport { retry, lock };\n";
    const errors = await toolingErrorsIn(code, 'tests/support/lint-fixture.ts');
    expect(errors).toEqual(['import/no-extraneous-dependencies']);
  });

  it('lets CommonJS files require', async () => {
    expect(await toolingErrorsIn("const http = require('node:http');\nmodule.exports = http;\n", 'scripts/bench/lint-fixture.cjs')).toEqual(
      [],
    );
  });

  it('keeps imports one way: scripts are commands nothing imports; tests import tools, tools import no tests', async () => {
    const importing = (target: string) => `import { value } from '${target}';\nexport { value };\n`;
    expect(await toolingErrorsIn(importing('../../tools/lib/wait.mjs'), 'tests/support/lint-fixture.ts')).toEqual([]);
    expect(await toolingErrorsIn(importing('../../src/build/build-identity.mjs'), 'tests/support/lint-fixture.ts')).toEqual([]);
    expect(await toolingErrorsIn(importing('../tools/lib/wait.mjs'), 'scripts/lint-fixture.mjs')).toEqual([]);
    for (const [target, file] of [
      ['../../scripts/cluster.mjs', 'tests/support/lint-fixture.ts'],
      ['../../scripts/cluster.mjs', 'tools/lib/lint-fixture.mjs'],
      ['./cluster.mjs', 'scripts/lint-fixture.mjs'],
      ['../tests/support/test-reports.mjs', 'scripts/lint-fixture.mjs'],
      ['../../tests/support/test-reports.mjs', 'tools/lib/lint-fixture.mjs'],
      ['../../docker/lint-fixture.mjs', 'tools/lib/lint-fixture.mjs'],
      ['../docker/lint-fixture.mjs', 'scripts/lint-fixture.mjs'],
      ['../../docker/lint-fixture.mjs', 'tests/support/lint-fixture.ts'],
    ]) {
      expect(await toolingErrorsIn(importing(target!), file!), `${file} importing ${target}`).toContain('no-restricted-imports');
    }
  });

  it('keeps the harness, the tests, the commands and docker/ out of every file of the product and its build', async () => {
    const importing = (target: string) => `import { value } from '${target}';\nexport { value };\n`;
    for (const [target, file] of [
      ['../../tools/lib/app-server.mjs', 'src/build/build-server.mjs'],
      ['../../scripts/image.mjs', 'src/build/build-server.mjs'],
      ['./tools/lib/app-server.mjs', 'next.config.js'],
      ['../../tools/lib/app-server.mjs', 'src/build/lint-fixture.mjs'],
      ['../../../tests/fixtures/x', 'src/server/serving/lint-fixture.ts'],
      ['../../../tools/lib/wait.mjs', 'src/ui/header/lint-fixture.tsx'],
      ['../tests/fixtures/x', 'src/instrumentation-client.ts'],
      ['../../../docker/lint-fixture.mjs', 'src/ui/header/lint-fixture.tsx'],
      ['../../../scripts/image.mjs', 'src/server/observability/lint-fixture.ts'],
      ['../scripts/image.mjs', 'src/proxy.ts'],
      ['../../docker/lint-fixture.mjs', 'src/build/lint-fixture.mjs'],
    ]) {
      expect(await toolingErrorsIn(importing(target!), file!), `${file} importing ${target}`).toContain('no-restricted-imports');
    }
  });
});
