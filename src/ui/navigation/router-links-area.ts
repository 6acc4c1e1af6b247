/**
 * Marks an element whose links RouterLinks follows through the router: a link with an
 * `hreflang` as a language switch, any other as a move within the site. Links outside such
 * an element keep the browser's own behaviour (the skip link; the error page's way home,
 * which loads in full). Spread it on the element: `<footer {...ROUTER_LINKS_AREA}>`.
 */
export const ROUTER_LINKS_AREA = { 'data-router-links': '' } as const;

export const ROUTER_LINKS_AREA_SELECTOR = '[data-router-links]';
