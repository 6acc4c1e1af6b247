import { getTranslator } from '@/i18n/server';
import { localizedPath, type Locale } from '@/shared/locales';
import { ErrorView, errorViewStyles } from '@/ui/error-view/error-view';

const MAX_SHOWN_PATH_LENGTH = 200;

/** The requested path as a visitor would read it: decoded when possible, and cut short. */
export function displayedPath(requested: string): string {
  let readable = requested;
  try {
    readable = decodeURIComponent(requested);
  } catch {
    // Malformed percent-encoding: show it as it was sent.
  }
  return readable.length > MAX_SHOWN_PATH_LENGTH ? `${readable.slice(0, MAX_SHOWN_PATH_LENGTH)}…` : readable;
}

/** "Page Not Found" with the path the visitor asked for and a way home, all in the server HTML. */
export async function NotFoundView({ locale, requestedPath }: { locale: Locale; requestedPath: string }) {
  const t = await getTranslator(locale, 'not-found');
  return (
    <ErrorView status="404" title={t('title')} message={t('message', { path: displayedPath(requestedPath) })}>
      <a className={errorViewStyles.action} href={localizedPath(locale)}>
        {t('home')}
      </a>
    </ErrorView>
  );
}
