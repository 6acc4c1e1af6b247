import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { readDashboard, rows } from '../support/grafana-dashboard';
import { alertingRules, chartOnlyAlertingRules } from '../support/prometheus-rules';

const RUNBOOKS = readFileSync(path.join(ROOT, 'docs', 'runbooks.md'), 'utf8');

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function githubAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Each `## ` section: its heading and its text. */
function sections(markdown: string): { heading: string; text: string }[] {
  return markdown
    .split(/^## /m)
    .slice(1)
    .map((section) => ({ heading: section.slice(0, section.indexOf('\n')), text: section }));
}

/** The dashboard rows (`**Row**`) and panels (`*Panel*`) a section's "Confirm" paragraph names. */
function confirmReferences(text: string): { rows: string[]; panels: string[] } {
  const paragraph = (text.split(/\n\n/).find((block) => block.startsWith('**Confirm**')) ?? '').replace(/\s+/g, ' ');
  const rowNames = [...paragraph.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => match[1]!).filter((name) => name !== 'Confirm');
  const panelNames = [...paragraph.replace(/\*\*[^*]+\*\*/g, '').matchAll(/\*([^*]+)\*/g)].map((match) => match[1]!);
  return { rows: rowNames, panels: panelNames };
}

describe('docs/runbooks.md', () => {
  const runbookSections = sections(RUNBOOKS);
  const dashboardRows = rows(readDashboard());

  it('has a section for every alert and for nothing else, reached by its runbook_url anchor', () => {
    const anchors = runbookSections.map((section) => githubAnchor(section.heading));
    const alerts = [...alertingRules(), ...chartOnlyAlertingRules()];

    expect(runbookSections.map((section) => section.heading).sort()).toEqual(alerts.map((rule) => rule.alert).sort());
    for (const rule of alerts) expect(anchors, rule.alert).toContain(rule.annotations!.runbook_url!.split('#')[1]);
  });

  it('says in every section what the alert means, how to confirm it and what to do', () => {
    for (const { heading, text } of runbookSections) {
      expect(text, heading).toMatch(/^\*\*Means\*\*: /m);
      expect(text, heading).toMatch(/^\*\*Confirm\*\*: /m);
      expect(text, heading).toMatch(/^\*\*Act\*\*: /m);
    }
  });

  it('confirms every alert on dashboard rows and panels that exist', () => {
    const panelTitles = dashboardRows.flatMap((row) => row.panels.map((panel) => panel.title));
    for (const { heading, text } of runbookSections) {
      const references = confirmReferences(text);

      expect(references.rows.length, heading).toBeGreaterThan(0);
      expect(references.panels.length, heading).toBeGreaterThan(0);
      expect(
        dashboardRows.map((row) => row.title),
        heading,
      ).toEqual(expect.arrayContaining(references.rows));
      expect(panelTitles, heading).toEqual(expect.arrayContaining(references.panels));
    }
  });

  it('derives anchors as GitHub does', () => {
    expect(githubAnchor('MeridianTargetDown')).toBe('meridiantargetdown');
    expect(githubAnchor('Rolling out a build: v2.1')).toBe('rolling-out-a-build-v21');
  });
});
