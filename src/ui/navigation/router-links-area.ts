/**
 * Marks an element whose links RouterLinks follows through the router: a link with an
 * `hreflang` as a language switch, any other as a move within the site. Links outside such
 * an element keep the browser's own behaviour (the skip link; the error page's way home,
 * which loads in full). Spread it on the element: `<footer {...ROUTER_LINKS_AREA}>`.
 */
const ATTRIBUTE = 'data-router-links';

export const ROUTER_LINKS_AREA = { [ATTRIBUTE]: '' } as const;

export const ROUTER_LINKS_AREA_SELECTOR = `[${ATTRIBUTE}]`;
