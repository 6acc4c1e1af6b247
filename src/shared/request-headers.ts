/**
 * Set by the locale proxy on every page request: the path the visitor asked
 * for, as sent, so the not-found page can name it and pick its locale.
 */
export const REQUESTED_PATH_HEADER = 'x-meridian-requested-path';
