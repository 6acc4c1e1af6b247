/**
 * How a page proves that its reports come from a page view the server counted. The server
 * names a signed token in the `Server-Timing` header of the page it answers (a header, not
 * the body, so pages stay byte-identical and served from memory with their ETags); the page
 * reads it from its navigation timing, sends it with every beacon, and has it renewed by the
 * build poll (src/server/serving/telemetry/page-view-tokens.ts). No runtime code but these
 * names: it reaches the browser bundle.
 */

/** The Server-Timing metric whose description is the token. */
export const PAGE_VIEW_TIMING = 'pv';

/** A poll of builds/latest.json sends its token in this header, and gets a renewed one back in it. */
export const PAGE_VIEW_TOKEN_HEADER = 'X-Page-View-Token';

/** No token the server issues is longer; anything longer is not one. */
export const MAX_PAGE_VIEW_TOKEN = 400;
