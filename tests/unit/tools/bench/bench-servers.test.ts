import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readConfig } from '@/server/config';
import { SERVER_CONFIG_VARIABLES } from '@/server/config-variables.mjs';
import { entrypointNodeArgs, NEXT_SERVER_VARIABLES, ourSettings } from '../../../../tools/bench/bench-servers.mjs';
import { ROOT } from '../../../../tools/lib/app-server.mjs';

describe('the variables the bench sets', () => {
  it.each([
    ['without tracing', ourSettings({ metricsPort: 9465 })],
    ['with tracing', ourSettings({ metricsPort: 9465, otlpEndpoint: 'http://127.0.0.1:4318' })],
  ])('are the server config variables, with values it accepts (%s)', (_, settings) => {
    for (const name of Object.keys(settings)) expect(SERVER_CONFIG_VARIABLES).toContain(name);
    expect(() => readConfig({ PORT: '3000', HOSTNAME: '127.0.0.1', ...settings })).not.toThrow();
  });

  it("names only variables Next's standalone server.js reads for Next", () => {
    const template = readFileSync(createRequire(import.meta.url).resolve('next/dist/build/utils.js'), 'utf8');
    for (const name of NEXT_SERVER_VARIABLES) expect(template).toContain(`process.env.${name}`);
  });
});

describe("the image's node arguments, which the bench starts our entry with", () => {
  const dockerfile = readFileSync(`${ROOT}/Dockerfile`, 'utf8');

  it("are the ENTRYPOINT's arguments before our entry, the V8 flags npm start runs it with too", () => {
    const args = entrypointNodeArgs(dockerfile);
    expect(args).toContain('--max-semi-space-size=2');
    const start = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')).scripts.start as string;
    expect(start).toBe(['node', ...args, '.next/standalone/meridian-server.cjs'].join(' '));
  });

  it('refuse an ENTRYPOINT that is not node running our entry in exec form', () => {
    expect(() => entrypointNodeArgs('ENTRYPOINT node meridian-server.cjs')).toThrow(/exec form/);
    expect(() => entrypointNodeArgs('ENTRYPOINT ["sh", "-c", "node meridian-server.cjs"]')).toThrow(/not node/);
    expect(() => entrypointNodeArgs('ENTRYPOINT ["node", "server.js"]')).toThrow(/not node/);
  });
});
