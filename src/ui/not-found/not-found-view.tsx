import { getTranslator } from '@/i18n/server';
import { localizedPath, type Locale } from '@/shared/locales';
import { ErrorLinkAction, ErrorView } from '@/ui/error-view/error-view';
import { displayedPath } from '@/shared/displayed-path';

/**
 * "Page Not Found" with the path the visitor asked for and a way home, all in
 * the server HTML. The <title> too, in the visitor's language: React hoists it
 * into the head. Not generateMetadata, whose streamed tags land before or after
 * the page's links depending on timing, while the server's not-found template
 * must be the same HTML as Next's own render (src/server/serving/next-compat/not-found).
 */
export async function NotFoundView({ locale, requestedPath }: { locale: Locale; requestedPath: string }) {
  const t = await getTranslator(locale, 'not-found');
  return (
    <>
      <title>{t('title')}</title>
      <ErrorView status="404" title={t('title')} message={t('message', { path: displayedPath(requestedPath) })}>
        <ErrorLinkAction href={localizedPath(locale)}>{t('home')}</ErrorLinkAction>
      </ErrorView>
    </>
  );
}
