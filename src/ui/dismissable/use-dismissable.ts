'use client';

import { useCallback, useEffect, useRef, useState } from 'react';

/** The open dismissables, innermost last: Escape closes only the last one opened. */
const openLayers: object[] = [];

interface DismissableOptions {
  /**
   * A modal panel (the rest of the page inert) keeps an outside press from
   * moving focus and returns it to the button; a plain menu lets focus go
   * where the visitor pressed.
   */
  modal: boolean;
}

/**
 * The state of a panel opened by a button, shared by the header's menus:
 * a press outside `rootRef` closes it, and Escape closes it and returns
 * focus to `buttonRef`. A panel inside another (the language switcher in the
 * mobile menu) takes Escape first.
 */
export function useDismissable({ modal }: DismissableOptions) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const layer = {};
    openLayers.push(layer);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || openLayers.at(-1) !== layer) return;
      event.preventDefault();
      close(true);
    };
    const onPointerDown = (event: PointerEvent) => {
      if (rootRef.current?.contains(event.target as Node)) return;
      if (modal) event.preventDefault();
      close(modal);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      openLayers.splice(openLayers.indexOf(layer), 1);
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open, modal, close]);

  return { open, setOpen, close, rootRef, buttonRef };
}
