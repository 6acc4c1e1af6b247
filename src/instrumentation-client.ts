import { routerNavigationStarted, type RouterNavigationType } from '@/freshness/full-load-navigation';
import { navigationProgress } from '@/ui/navigation-progress/navigation-progress';

/**
 * Next calls this as each client navigation begins (links, router.push,
 * back and forward): the loading bar and overlay start here, and once a new
 * build is out the navigation becomes a full load.
 */
export function onRouterTransitionStart(href: string, navigationType: RouterNavigationType): void {
  navigationProgress.routerTransitionStarted(href);
  routerNavigationStarted(href, navigationType);
}
