import { navigationProgress } from '@/ui/navigation-progress/navigation-progress';

/** Next calls this as each client navigation begins: the loading bar and overlay start here. */
export function onRouterTransitionStart(href: string): void {
  navigationProgress.routerTransitionStarted(href);
}
