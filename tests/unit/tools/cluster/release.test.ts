import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { deployArgs } from '../../../../tools/cluster/release.mjs';
import { ROOT } from '../../../../tools/lib/app-server.mjs';

test("the cluster tests deploy with the operations guide's own install-and-upgrade command", () => {
  const readme = readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
  const command = /^helm (upgrade --install meridian helm\/meridian --namespace web --create-namespace) \\\n\s+(.*)$/m.exec(readme);
  expect(command, 'docs/operations.md shows `helm upgrade --install ... --create-namespace \\` and then its flags').not.toBeNull();
  const documented = `${command![1]} ${command![2]}`.replace('<build id>', 'BUILD').split(/\s+/);
  expect(deployArgs({ release: 'meridian', namespace: 'web', valuesFile: 'web.yaml', tag: 'BUILD', chart: 'helm/meridian' })).toEqual(
    documented,
  );
});
