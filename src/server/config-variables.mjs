// The environment variables the server reads at start-up, named once. src/server/config.ts
// validates exactly these (its schema has one entry per name, checked by the type checker);
// this file is plain JavaScript so that the harness, which runs on plain Node, can import
// it too (the bench keeps a caller's values of them away from the servers it measures).

/** @typedef {(typeof SERVER_CONFIG_VARIABLES)[number]} ServerConfigVariable */

export const SERVER_CONFIG_VARIABLES = /** @type {const} */ ([
  'PORT',
  'HOSTNAME',
  'METRICS_PORT',
  'LOG_LEVEL',
  'SHUTDOWN_DELAY_MS',
  'SHUTDOWN_TIMEOUT_MS',
  'KEEP_ALIVE_TIMEOUT_MS',
  'HEADERS_TIMEOUT_MS',
  'MAX_CONNECTIONS',
  'TRUST_PROXY',
  'HSTS',
  'TELEMETRY_RATE_LIMIT_PER_MINUTE',
  'TELEMETRY_TOKEN_KEYS',
  'TELEMETRY_TOKEN_TTL_MS',
  'POD_IP',
  'BUILD_POLL_INTERVAL_MS',
  'RENDER_CONCURRENCY',
  'RENDER_QUEUE',
  'NEXT_ANSWERS_ALL',
  'STABLE_SERVICE_URL',
  'CANARY_SERVICE_URL',
  'SITE_URL',
  'OTEL_SERVICE_NAME',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_SDK_DISABLED',
]);
