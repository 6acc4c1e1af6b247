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

export const errorViewStyles = styles;
