/**
 * The two ways the server answers what it can make out of Next's private formats
 * (src/server/serving/next-compat/): from memory, and, with NEXT_ANSWERS_ALL=true, by
 * handing it all to Next. The router, not-found and payload tests run both.
 */
export const ANSWER_MODES = [
  { mode: 'answered from memory', env: {}, fromMemory: true },
  { mode: 'NEXT_ANSWERS_ALL=true', env: { NEXT_ANSWERS_ALL: 'true' }, fromMemory: false },
] as const;
