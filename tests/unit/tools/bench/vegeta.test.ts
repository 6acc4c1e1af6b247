import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { attack, writeTargets } from '../../../../tools/bench/vegeta.mjs';

const dir = mkdtempSync(path.join(tmpdir(), 'meridian-vegeta-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REPORT = { requests: 10, rate: 5, latencies: { '50th': 1e6, '99th': 2e6, max: 3e6 }, status_codes: { '200': 10 }, errors: null };

/** A stand-in for vegeta: `attack` writes its -output= file and exits with `attackExit`; `report` prints REPORT. */
function standIn(name: string, attackExit: number): string {
  const file = path.join(dir, name);
  writeFileSync(
    file,
    `#!/bin/sh
if [ "$1" = report ]; then echo '${JSON.stringify(REPORT)}'; exit 0; fi
for arg; do case "$arg" in -output=*) echo results > "\${arg#-output=}";; esac; done
exit ${attackExit}
`,
    { mode: 0o755 },
  );
  return file;
}

test('writeTargets writes the file it is given: count requests, each {hex} new', () => {
  const file = writeTargets(path.join(dir, 'kind.json'), 'http://127.0.0.1:1', { path: '/ja/{hex}', headers: { accept: 'x' } }, 3);

  const targets = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { url: string; header: unknown });
  expect(targets).toHaveLength(3);
  expect(new Set(targets.map((target) => target.url)).size).toBe(3);
  expect(targets[0]).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:1\/ja\/[0-9a-f]+$/), header: { accept: ['x'] } });
});

test("an attack's results file goes once it is read, and when the attack fails", async () => {
  const folder = mkdtempSync(path.join(dir, 'targets-'));
  const targetsFile = writeTargets(path.join(folder, 'ja.json'), 'http://127.0.0.1:1', { path: '/ja' }, 1);

  await expect(attack(standIn('vegeta-ok', 0), { targetsFile, rate: 5, durationS: 2 })).resolves.toMatchObject({ requests: 10, p99Ms: 2 });
  expect(readdirSync(folder)).toEqual(['ja.json']);

  await expect(attack(standIn('vegeta-failing', 1), { targetsFile, rate: 5, durationS: 2 })).rejects.toThrow('exited with 1');
  expect(readdirSync(folder)).toEqual(['ja.json']);
});
