'use client';

import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { usePathname } from 'next/navigation';
import { useClientT } from '@/i18n/client-messages';
import { useDismissable } from '@/ui/dismissable/use-dismissable';
import { makeRestOfPageInert } from './inert-outside';
import styles from './mobile-menu.module.css';

const DESKTOP_QUERY = '(min-width: 768px)';

/**
 * Below 768 px the header's menu and switcher fold behind a button; the open
 * panel is a modal dialog: the rest of the page is inert, Escape, an outside
 * click or a navigation close it, focus returns to the button, and the page
 * does not scroll.
 * From 768 px up the children simply sit in the header.
 */
export function MobileMenu({ children }: { children: ReactNode }) {
  const t = useClientT('mobile-menu');
  const { open, setOpen, close, rootRef, buttonRef } = useDismissable({ modal: true });
  const panelId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const pathname = usePathname();
  // A navigation closes the menu during the render that shows the new page
  // (https://react.dev/learn/you-might-not-need-an-effect#adjusting-some-state-when-a-prop-changes).
  const [shownPathname, setShownPathname] = useState(pathname);
  if (pathname !== shownPathname) {
    setShownPathname(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const menu = rootRef.current;
    const panel = panelRef.current;
    if (!menu || !panel) return;
    const root = document.documentElement;
    const previousOverflow = root.style.overflow;
    root.style.overflow = 'hidden';
    const restoreRestOfPage = makeRestOfPageInert(menu);
    panel.querySelector<HTMLElement>('a[href], button:not([disabled])')?.focus();

    const onPanelClick = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest('a[href]:not([aria-haspopup])')) close(true);
    };
    const desktop = window.matchMedia(DESKTOP_QUERY);
    const onViewportChange = () => desktop.matches && setOpen(false);

    panel.addEventListener('click', onPanelClick);
    desktop.addEventListener('change', onViewportChange);
    return () => {
      root.style.overflow = previousOverflow;
      restoreRestOfPage();
      panel.removeEventListener('click', onPanelClick);
      desktop.removeEventListener('change', onViewportChange);
    };
  }, [open, close, rootRef, setOpen]);

  return (
    <div ref={rootRef} className={styles.root}>
      <button
        ref={buttonRef}
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => (open ? close(true) : setOpen(true))}
      >
        <span className={styles.icon} data-open={open} aria-hidden="true" />
        <span className="visually-hidden">{open ? t('close') : t('open')}</span>
      </button>
      <div
        ref={panelRef}
        id={panelId}
        className={styles.panel}
        data-open={open}
        role={open ? 'dialog' : undefined}
        aria-modal={open ? true : undefined}
        aria-label={open ? t('title') : undefined}
      >
        {children}
      </div>
      {open && (
        // The rest of the page is inert, so Tab past the panel's end would leave for
        // the browser's own controls: this stop sends it back to the button.
        <span tabIndex={0} className="visually-hidden" onFocus={() => buttonRef.current?.focus()} />
      )}
    </div>
  );
}
