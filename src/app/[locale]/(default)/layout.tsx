import type { ReactNode } from 'react';
import { ChunkErrorSurface } from '@/freshness/chunk-error-surface';
import { routeLocale } from '@/i18n/route-locale';
import { DefaultLayout } from '@/ui/layouts/default-layout';

export default async function DefaultRouteLayout({ children, params }: { children: ReactNode; params: Promise<{ locale: string }> }) {
  return (
    <DefaultLayout locale={await routeLocale(params)}>
      <ChunkErrorSurface />
      {children}
    </DefaultLayout>
  );
}
