'use client';

import { useEffect } from 'react';
import { useParams, useRouter } from 'next/navigation';
import { useClientT } from '@/i18n/client-messages';
import { isLocale, localizedPath, DEFAULT_LOCALE } from '@/shared/locales';
import { navigationProgress } from '@/ui/navigation-progress/navigation-progress';
import { ErrorButtonAction, ErrorView } from './error-view';
import { statusOfError } from './error-status';

/** What an error boundary shows: the status, its title, and a way to retry or leave. */
export function ErrorBoundaryView({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useClientT('error');
  const router = useRouter();
  const params = useParams<{ locale?: string }>();
  const locale = isLocale(params.locale) ? params.locale : DEFAULT_LOCALE;
  const status = statusOfError(error);
  const title = status === 404 ? t('notFound.title') : t('internal.title');
  const message = status === 404 ? t('notFound.title') : t('internal.message');

  useEffect(() => {
    navigationProgress.fail();
    console.error(error);
  }, [error]);

  return (
    <ErrorView status={t('status', { status })} title={title} message={message}>
      <ErrorButtonAction onClick={() => reset()}>{t('retry')}</ErrorButtonAction>
      <ErrorButtonAction
        secondary
        onClick={() => {
          router.push(localizedPath(locale));
          reset();
        }}
      >
        {t('home')}
      </ErrorButtonAction>
    </ErrorView>
  );
}
