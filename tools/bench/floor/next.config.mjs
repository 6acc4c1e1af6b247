// @ts-check
// The floor the bench measures Meridian against: a hello-world App Router page built
// with the project's own Next settings (next.config.js: the bundler, React's strict
// mode, inline CSS, the deployment id in asset URLs...), less what only Meridian's
// routes, server and build use.
import projectConfig from '../../../next.config.js';

const {
  env: _env,
  headers: _headers,
  rewrites: _rewrites,
  typescript: _typescript,
  output: _output,
  outputFileTracingExcludes: _tracing,
  ...shared
} = projectConfig;

/** @type {import('next').NextConfig} */
export default { ...shared, deploymentId: 'floor', pageExtensions: ['jsx'] };
