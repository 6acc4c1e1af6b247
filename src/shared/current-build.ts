/** Set at build time by next.config.js: the id of the build this page belongs to. */
export const CURRENT_BUILD_ID = process.env.NEXT_PUBLIC_BUILD_ID ?? '';
