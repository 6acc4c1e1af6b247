import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: { '@': path.resolve(import.meta.dirname, 'src') },
  },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' },
      },
      {
        // Real server processes on real ports, against the production build.
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/integration/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // A rollout under load: haproxy, Prometheus and Chromium around app processes replaced one by one.
        extends: true,
        test: {
          name: 'rollout',
          include: ['tests/rollout/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/integration/support/global-setup.ts'],
          testTimeout: 180_000,
          // After the other projects, alone: its timings (health checks against
          // the shutdown delay) should not compete with them for the CPUs.
          sequence: { groupOrder: 1 },
        },
      },
      {
        // The deployment artefacts proven with real tools: a Docker engine, helm.
        extends: true,
        test: {
          name: 'deployment',
          include: ['tests/deployment/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/deployment/support/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 1_200_000,
        },
      },
    ],
  },
});
