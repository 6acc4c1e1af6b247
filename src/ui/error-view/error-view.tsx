import type { ReactNode } from 'react';
import styles from './error-view.module.css';

/**
 * The look of every error page: a status, a title, a message and what the
 * visitor can do next. Pure, so the not-found page (server) and the error
 * boundary (client) share it.
 */
export function ErrorView({
  status,
  title,
  message,
  children,
}: {
  status: string;
  title: string;
  message: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className={styles.view} aria-labelledby="error-title">
      <p className={styles.status}>{status}</p>
      <h1 id="error-title" className={styles.title}>
        {title}
      </h1>
      <p className={styles.message}>{message}</p>
      <div className={styles.actions}>{children}</div>
    </section>
  );
}

/** A way out as a plain link, so it works before (and without) JavaScript; `secondary` when the page does not lead with it. */
export function ErrorLinkAction({ href, secondary = false, children }: { href: string; secondary?: boolean; children: ReactNode }) {
  return (
    <a className={secondary ? styles.secondary : styles.action} href={href}>
      {children}
    </a>
  );
}

/** An action that runs in the browser; `secondary` for the one the page does not lead with. */
export function ErrorButtonAction({
  onClick,
  secondary = false,
  children,
}: {
  onClick: () => void;
  secondary?: boolean;
  children: ReactNode;
}) {
  return (
    <button type="button" className={secondary ? styles.secondary : styles.action} onClick={onClick}>
      {children}
    </button>
  );
}
