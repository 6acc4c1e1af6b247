'use client';

import { useEffect } from 'react';
import { useClientT, useLocalizedPath } from '@/i18n/client-messages';
import { navigationProgress } from '@/ui/navigation-progress/navigation-progress';
import { ErrorButtonAction, ErrorLinkAction, ErrorView } from './error-view';
import { statusOfError } from './error-status';

/**
 * What an error boundary shows: the status, its title, and a way to retry or
 * leave. Leaving is a link home, a fresh page load, as on the not-found page:
 * the router that just failed is left out of it.
 */
export function ErrorBoundaryView({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useClientT('error');
  const home = useLocalizedPath();
  const status = statusOfError(error);
  const title = status === 404 ? t('notFound.title') : t('internal.title');
  const message = status === 404 ? t('notFound.title') : t('internal.message');

  // Next's own error-boundary callback writes the error to the console.
  useEffect(() => navigationProgress.fail(), [error]);

  return (
    <ErrorView status={t('status', { status })} title={title} message={message}>
      <ErrorButtonAction onClick={() => reset()}>{t('retry')}</ErrorButtonAction>
      <ErrorLinkAction href={home} secondary>
        {t('home')}
      </ErrorLinkAction>
    </ErrorView>
  );
}
