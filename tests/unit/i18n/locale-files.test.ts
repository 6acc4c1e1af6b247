import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NAMESPACES } from '@/i18n/namespaces';
import { LOCALES } from '@/shared/locales';
import { MENU_ITEMS } from '@/ui/navigation/menu-items';
import { SLIDES } from '@/ui/carousel/slides';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const LOCALES_DIR = path.join(ROOT, 'locales');
const UI_DIR = path.join(ROOT, 'src/ui');
/** Proper names that stay in Latin letters in every language. */
const ALLOWED_LATIN_WORDS = new Set(['Meridian', 'Prometheus', 'Grafana', 'OpenTelemetry']);

type Tree = { [key: string]: string | Tree };

function filesOf(locale: string): string[] {
  return readdirSync(path.join(LOCALES_DIR, locale)).sort();
}

function read(locale: string, namespace: string): Tree {
  return JSON.parse(readFileSync(path.join(LOCALES_DIR, locale, `${namespace}.json`), 'utf8')) as Tree;
}

/** Every leaf as [dotted key, value]. */
function leaves(tree: Tree, prefix = ''): [string, unknown][] {
  return Object.entries(tree).flatMap(([key, value]): [string, unknown][] =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}

function placeholders(value: string): string[] {
  return [...value.matchAll(/\{\{\s*([^}\s]+)\s*\}\}/g)].map((match) => match[1] ?? '').sort();
}

const english = Object.fromEntries(NAMESPACES.map((ns) => [ns, new Map(leaves(read('en', ns)))]));

describe('locale files', () => {
  it('has a directory for each locale and nothing else', () => {
    expect(readdirSync(LOCALES_DIR).sort()).toEqual([...LOCALES].sort());
  });

  it.each([...LOCALES])('%s has exactly one file per namespace', (locale) => {
    expect(filesOf(locale)).toEqual(NAMESPACES.map((ns) => `${ns}.json`).sort());
  });

  describe.each(LOCALES.flatMap((locale) => NAMESPACES.map((ns) => [locale, ns] as const)))('%s/%s', (locale, ns) => {
    const entries = leaves(read(locale, ns));
    const reference = english[ns] ?? new Map<string, unknown>();

    it('has the same keys as English', () => {
      expect(entries.map(([key]) => key).sort()).toEqual([...reference.keys()].sort());
    });

    it('holds only non-empty strings', () => {
      for (const [key, value] of entries) {
        expect(typeof value, key).toBe('string');
        expect(String(value).trim(), key).not.toBe('');
      }
    });

    it('uses the same placeholders as English', () => {
      for (const [key, value] of entries) {
        const base = reference.get(key);
        if (typeof base !== 'string' || typeof value !== 'string') continue;
        expect(placeholders(value), key).toEqual(placeholders(base));
      }
    });

    if (locale !== 'en') {
      it('has no untranslated English words', () => {
        for (const [key, value] of entries) {
          const text = String(value).replace(/\{\{[^}]*\}\}/g, ' ');
          const words = (text.match(/[A-Za-z]{4,}/g) ?? []).filter((word) => !ALLOWED_LATIN_WORDS.has(word));
          expect(words, `${locale}/${ns}: ${key}`).toEqual([]);
        }
      });
    }
  });
});

/** Keys passed as string literals to a translator whose namespace the file names. */
function literalKeys(source: string): { namespace: string; key: string }[] {
  const translators = new Map<string, string>();
  const declaration = /const\s+(?:\{\s*t\s*\}|(\w+))\s*=\s*(?:await\s+getTranslator\([^,]+,\s*|useClientT\()'([\w-]+)'\)/g;
  for (const match of source.matchAll(declaration)) translators.set(match[1] ?? 't', match[2] ?? '');
  const keys: { namespace: string; key: string }[] = [];
  for (const [name, namespace] of translators) {
    for (const match of source.matchAll(new RegExp(`(?<![\\w.])${name}\\('([^']+)'`, 'g'))) {
      keys.push({ namespace, key: match[1] ?? '' });
    }
  }
  return keys;
}

function tsxFiles(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.tsx'))
    .map((file) => path.join(directory, file));
}

describe('keys used by the UI', () => {
  const used = tsxFiles(UI_DIR).flatMap((file) =>
    literalKeys(readFileSync(file, 'utf8')).map((use) => ({ ...use, file: path.relative(ROOT, file) })),
  );

  it('finds the translator calls (guards the scan itself)', () => {
    expect(used.length).toBeGreaterThan(20);
    expect(used).toContainEqual(expect.objectContaining({ namespace: 'common', key: 'homeLink' }));
    expect(used).toContainEqual(expect.objectContaining({ namespace: 'error', key: 'internal.title' }));
  });

  it('uses only keys that exist in English', () => {
    const missing = used.filter(({ namespace, key }) => !english[namespace]?.has(key));
    expect(missing).toEqual([]);
  });

  it('has a label for every menu item and a text for every slide', () => {
    for (const item of MENU_ITEMS) expect(english.navigation?.has(item.id), item.id).toBe(true);
    for (const slide of SLIDES) {
      for (const field of ['title', 'text', 'cta', 'imageAlt']) {
        expect(english.carousel?.has(`slides.${slide.id}.${field}`), `${slide.id}.${field}`).toBe(true);
      }
    }
  });
});
