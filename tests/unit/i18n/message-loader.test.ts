import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';

// Pass-through spy on readFile, to prove that rejected requests never touch the disk.
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return { ...actual, readFile: vi.fn(actual.readFile) };
});

const { readFile } = await import('node:fs/promises');
const { createMessageLoader, LocaleLoadError } = await import('@/i18n/message-loader');

const EN = { hello: 'Hello', nested: { bye: 'Bye {{name}}' } };
const JA = { hello: 'こんにちは', nested: { bye: 'さようなら {{name}}' } };

let directory: string;
let stdout: MockInstance<typeof process.stdout.write>;

async function put(locale: string, namespace: string, content: string) {
  await mkdir(path.join(directory, locale), { recursive: true });
  await writeFile(path.join(directory, locale, `${namespace}.json`), content);
}

/** The JSON log lines written to stdout, parsed. */
function logLines(): Record<string, unknown>[] {
  return stdout.mock.calls
    .map((args) => String(args[0]))
    .flatMap((text) => text.split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function expectFailureLogged(locale: string, errType?: string) {
  const lines = logLines().filter((line) => line.msg === 'Failed locale loading');
  expect(lines).toContainEqual(
    expect.objectContaining({
      msg: 'Failed locale loading',
      locale,
      namespace: 'common',
      source: 'server',
      err: expect.objectContaining({ message: expect.any(String), ...(errType ? { type: errType } : {}) }),
    }),
  );
}

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'meridian-messages-'));
  await put('en', 'common', JSON.stringify(EN));
  await put('ja', 'common', JSON.stringify(JA));
  stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.mocked(readFile).mockClear();
});

afterEach(async () => {
  stdout.mockRestore();
  await rm(directory, { recursive: true, force: true });
});

describe('createMessageLoader', () => {
  it('loads the requested locale and logs nothing', async () => {
    const load = createMessageLoader(directory);
    await expect(load('ja', 'common')).resolves.toEqual(JA);
    await expect(load('en', 'common')).resolves.toEqual(EN);
    expect(logLines()).toEqual([]);
  });

  it('falls back to English when the file is missing, logging one line', async () => {
    await rm(path.join(directory, 'ja', 'common.json'));
    await expect(createMessageLoader(directory)('ja', 'common')).resolves.toEqual(EN);
    expect(logLines()).toHaveLength(1);
    expectFailureLogged('ja');
    expect(logLines()[0]).toMatchObject({ level: 50 });
  });

  it('falls back to English on malformed JSON', async () => {
    await put('ja', 'common', '{"hello": "こんにちは",');
    await expect(createMessageLoader(directory)('ja', 'common')).resolves.toEqual(EN);
    expect(logLines()).toHaveLength(1);
    expectFailureLogged('ja', 'SyntaxError');
  });

  it.each([
    ['an array', '["hello"]'],
    ['a number value', '{"hello": 1}'],
    ['a nested number value', '{"nested": {"bye": 2}}'],
    ['null', 'null'],
    ['a string', '"hello"'],
    ['an array value', '{"hello": ["a"]}'],
  ])('falls back to English when the file holds %s', async (_shape, content) => {
    await put('ja', 'common', content);
    await expect(createMessageLoader(directory)('ja', 'common')).resolves.toEqual(EN);
    expect(logLines()).toHaveLength(1);
    expectFailureLogged('ja', 'LocaleLoadError');
  });

  it.each([
    ['fr', 'common'],
    ['JA', 'common'],
    ['../en', 'common'],
    ['ja', '../../etc'],
    ['ja', 'unknown'],
    ['ja', ''],
  ])('rejects locale %j with namespace %j without reading a file', async (locale, namespace) => {
    await put('fr', 'common', JSON.stringify(EN));
    const load = createMessageLoader(directory);
    await expect(load(locale, namespace)).rejects.toBeInstanceOf(LocaleLoadError);
    await expect(load(locale, namespace)).rejects.toThrow(/no messages/);
    expect(readFile).not.toHaveBeenCalled();
    expect(logLines()).toEqual([]);
  });

  it('returns {} and logs when English itself is missing', async () => {
    await rm(path.join(directory, 'en', 'common.json'));
    await expect(createMessageLoader(directory)('en', 'common')).resolves.toEqual({});
    expect(logLines()).toHaveLength(1);
    expectFailureLogged('en');
  });

  it('returns {} and logs twice when both the locale and English are missing', async () => {
    await rm(path.join(directory, 'en', 'common.json'));
    await rm(path.join(directory, 'ja', 'common.json'));
    await expect(createMessageLoader(directory)('ja', 'common')).resolves.toEqual({});
    expect(logLines().map((line) => line.locale)).toEqual(['ja', 'en']);
    expectFailureLogged('ja');
    expectFailureLogged('en');
  });

  it('reads the files from the directory it was given', async () => {
    await expect(createMessageLoader(path.join(directory, 'nowhere'))('en', 'common')).resolves.toEqual({});
    expect(readFile).toHaveBeenCalledWith(path.join(directory, 'nowhere', 'en', 'common.json'), 'utf8');
  });
});
