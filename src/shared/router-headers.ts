/**
 * The request headers by which the App Router asks for a page's payload
 * rather than its HTML. Next's answers vary by them, and so do ours; the
 * locale rules read them to tell a page load from a router request.
 */
export const RSC_HEADER = 'rsc';
export const ROUTER_STATE_TREE_HEADER = 'next-router-state-tree';
export const ROUTER_PREFETCH_HEADER = 'next-router-prefetch';
export const ROUTER_SEGMENT_PREFETCH_HEADER = 'next-router-segment-prefetch';
export const SERVER_ACTION_HEADER = 'next-action';

export const ROUTER_VARY_HEADERS = [RSC_HEADER, ROUTER_STATE_TREE_HEADER, ROUTER_PREFETCH_HEADER, ROUTER_SEGMENT_PREFETCH_HEADER] as const;

/** Every header that marks a request of the App Router's own: the above, and a server action's. */
export const ROUTER_REQUEST_HEADERS = [...ROUTER_VARY_HEADERS, SERVER_ACTION_HEADER] as const;

/** ROUTER_VARY_HEADERS as a Vary header value, in the order Next writes them. */
export const ROUTER_VARY = ROUTER_VARY_HEADERS.join(', ');
