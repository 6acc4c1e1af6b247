import { localizedPath, type Locale } from '@/shared/locales';

/** The site's menu, in order: each item leads to a section of the home page. */
export const MENU_ITEMS = [
  { id: 'features', section: 'features' },
  { id: 'rollouts', section: 'rollouts' },
  { id: 'observability', section: 'observability' },
  { id: 'languages', section: 'languages' },
] as const;

export type MenuItemId = (typeof MENU_ITEMS)[number]['id'];

export function menuItemHref(locale: Locale, section: string): string {
  return `${localizedPath(locale)}#${section}`;
}
