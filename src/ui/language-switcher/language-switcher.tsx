'use client';

import { useId, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { usePathname } from 'next/navigation';
import { useClientT } from '@/i18n/client-messages';
import { LOCALES, NATIVE_NAMES, localizedPath, pathWithinLocale, type Locale } from '@/shared/locales';
import { useDismissable } from '@/ui/dismissable/use-dismissable';
import { useLocaleSwitch } from './use-locale-switch';
import styles from './language-switcher.module.css';

/**
 * A menu button (WAI-ARIA APG pattern) listing the languages by their native
 * names, the current one checked. Each entry is a real link, so it also works
 * before the page hydrates.
 */
export function LanguageSwitcher({ locale }: { locale: Locale }) {
  const t = useClientT('language-switcher');
  const { open, setOpen, close, rootRef, buttonRef } = useDismissable({ modal: false });
  const menuId = useId();
  const itemRefs = useRef<(HTMLAnchorElement | null)[]>([]);
  const pathname = usePathname();
  const switchLocale = useLocaleSwitch();
  const path = pathWithinLocale(pathname);

  const focusItem = (index: number) => {
    const count = LOCALES.length;
    itemRefs.current[((index % count) + count) % count]?.focus();
  };

  const pendingFocus = useRef<number | null>(null);

  const openMenu = (focusIndex = LOCALES.indexOf(locale)) => {
    pendingFocus.current = focusIndex;
    setOpen(true);
  };

  // Before the next key is handled: a keydown's update commits synchronously.
  useLayoutEffect(() => {
    if (!open || pendingFocus.current === null) return;
    focusItem(pendingFocus.current);
    pendingFocus.current = null;
  });

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openMenu(event.key === 'ArrowDown' ? LOCALES.indexOf(locale) : LOCALES.length - 1);
    }
  };

  const onItemKeyDown = (event: KeyboardEvent<HTMLAnchorElement>, index: number) => {
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: -1 };
    if (event.key in moves) {
      event.preventDefault();
      focusItem(moves[event.key] ?? 0);
    } else if (event.key === 'Tab') {
      setOpen(false);
    } else if (event.key === ' ') {
      event.preventDefault();
      event.currentTarget.click();
    }
  };

  return (
    <div ref={rootRef} className={styles.switcher}>
      <button
        ref={buttonRef}
        type="button"
        className={styles.button}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={t('buttonLabel', { language: NATIVE_NAMES[locale] })}
        onClick={() => (open ? close(false) : openMenu())}
        onKeyDown={onButtonKeyDown}
      >
        <svg className={styles.globe} viewBox="0 0 24 24" aria-hidden="true">
          <circle cx="12" cy="12" r="9" />
          <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z" />
        </svg>
        <span lang={locale}>{NATIVE_NAMES[locale]}</span>
      </button>
      <ul id={menuId} role="menu" aria-label={t('listLabel')} className={styles.menu} hidden={!open}>
        {LOCALES.map((option, index) => (
          <li key={option} role="none">
            <a
              ref={(element) => {
                itemRefs.current[index] = element;
              }}
              role="menuitemradio"
              aria-checked={option === locale}
              tabIndex={-1}
              href={localizedPath(option, path)}
              hrefLang={option}
              lang={option}
              className={styles.item}
              onKeyDown={(event) => onItemKeyDown(event, index)}
              onClick={(event) => {
                setOpen(false);
                switchLocale(event, option);
              }}
            >
              {NATIVE_NAMES[option]}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
