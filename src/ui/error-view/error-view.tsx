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

/** The way out that the page leads with: a plain link, so it works before (and without) JavaScript. */
export function ErrorLinkAction({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a className={styles.action} href={href}>
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
