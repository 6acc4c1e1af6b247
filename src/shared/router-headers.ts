/**
 * The request headers by which the App Router asks for a page's payload
 * rather than its HTML. Next's answers vary by them, and so do ours; the
 * locale rules read them to tell a page load from a router request.
 */
export const ROUTER_STATE_TREE_HEADER = 'next-router-state-tree';

export const ROUTER_VARY_HEADERS = ['rsc', ROUTER_STATE_TREE_HEADER, 'next-router-prefetch', 'next-router-segment-prefetch'] as const;

/** Every header that marks a request of the App Router's own: the above, and a server action's. */
export const ROUTER_REQUEST_HEADERS = [...ROUTER_VARY_HEADERS, 'next-action'] as const;

/** ROUTER_VARY_HEADERS as a Vary header value, in the order Next writes them. */
export const ROUTER_VARY = ROUTER_VARY_HEADERS.join(', ');
