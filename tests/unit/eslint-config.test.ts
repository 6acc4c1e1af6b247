import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The project's own eslint.config.js, as `npm run lint` loads it. */
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../..') });

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

  it('keeps the one-way imports between rooms', async () => {
    const code = `import { config } from '@/server/config';

export const port = config.port;
`;
    expect(await errorsIn(code)).toContain('no-restricted-imports');
  });
});
