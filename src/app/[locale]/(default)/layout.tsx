import type { ReactNode } from 'react';
import { ChunkErrorSurface } from '@/freshness/chunk-error-surface';
import type { Locale } from '@/shared/locales';
import { DefaultLayout } from '@/ui/layouts/default-layout';

export default async function DefaultRouteLayout({ children, params }: { children: ReactNode; params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  return (
    <DefaultLayout locale={locale as Locale}>
      <ChunkErrorSurface />
      {children}
    </DefaultLayout>
  );
}
