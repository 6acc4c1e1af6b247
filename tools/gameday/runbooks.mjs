// docs/runbooks.md read as the game day uses it: each alert's section, the dashboard panel its
// "Confirm" paragraph points at first, and its diagnosis steps, the `sh` and `promql` code
// blocks of that paragraph, to run as written once their placeholders (`<namespace>`,
// `<job>`, `<release>`, `<deployment>`, `<threshold>`) are filled in. Also: where a
// runbook_url lands.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';
import { ROOT } from '../lib/app-server.mjs';

export const RUNBOOKS_FILE = path.join(ROOT, 'docs', 'runbooks.md');

/**
 * @typedef {{ kind: 'sh' | 'promql', text: string }} Step
 * @typedef {{ alert: string, anchor: string, panel: { row: string, title: string } | null, steps: Step[] }} Runbook
 * @typedef {import('mdast').RootContent} Node
 */

/** The placeholders a step may hold, by name. @typedef {Record<'namespace' | 'job' | 'release' | 'deployment' | 'threshold', string>} Placeholders */

/**
 * Every `## ` section of the runbooks, by alert name.
 * @param {string} [markdown]
 * @returns {Map<string, Runbook>}
 */
export function readRunbooks(markdown = readFileSync(RUNBOOKS_FILE, 'utf8')) {
  const slugger = new GithubSlugger();
  /** @type {Map<string, Runbook>} */
  const runbooks = new Map();
  /** @type {Runbook | null} */
  let current = null;
  let inConfirm = false;
  for (const node of fromMarkdown(markdown).children) {
    if (node.type === 'heading') {
      const heading = toString(node);
      const anchor = slugger.slug(heading);
      current = node.depth === 2 ? { alert: heading, anchor, panel: null, steps: [] } : null;
      if (current) runbooks.set(heading, current);
      inConfirm = false;
      continue;
    }
    if (!current) continue;
    if (node.type === 'paragraph') {
      const lead = node.children[0];
      if (lead?.type === 'strong') inConfirm = toString(lead) === 'Confirm';
      if (inConfirm) current.panel ??= firstPanel(node);
    }
    if (inConfirm && node.type === 'code' && (node.lang === 'sh' || node.lang === 'promql'))
      current.steps.push({ kind: node.lang, text: node.value });
  }
  return runbooks;
}

/**
 * The first `**Row** › *Panel*` a paragraph names.
 * @param {import('mdast').Paragraph} paragraph
 */
function firstPanel(paragraph) {
  const children = paragraph.children;
  for (let index = 0; index + 2 < children.length; index += 1) {
    const [row, between, panel] = [children[index], children[index + 1], children[index + 2]];
    if (row?.type === 'strong' && between?.type === 'text' && between.value.trim() === '›' && panel?.type === 'emphasis')
      return { row: toString(row), title: toString(panel) };
  }
  return null;
}

/**
 * A step with its placeholders filled in; refused when one is left, naming it.
 * @param {Step} step @param {Placeholders} values
 */
export function fillPlaceholders(step, values) {
  const text = step.text.replace(
    /<(namespace|job|release|deployment|threshold)>/g,
    (_, name) => values[/** @type {keyof Placeholders} */ (name)],
  );
  const left = /<([a-z_]+)>/.exec(text);
  if (left) throw new Error(`gameday: the runbook step ${JSON.stringify(step.text)} holds <${left[1]}>, which the game day cannot fill in`);
  return { ...step, text };
}

/**
 * Whether the Markdown at `url` (a runbook_url, fragment included) has a heading whose
 * GitHub anchor is the fragment, and which heading: the section the link lands on.
 * @param {string} url
 * @returns {Promise<string | null>}
 */
export async function landingSection(url) {
  const { hash } = new URL(url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`gameday: ${url} answered ${response.status}`);
  const slugger = new GithubSlugger();
  for (const node of fromMarkdown(await response.text()).children)
    if (node.type === 'heading') {
      const heading = toString(node);
      if (`#${slugger.slug(heading)}` === hash) return heading;
    }
  return null;
}
