'use client';

import { BlankLayout } from '@/ui/layouts/blank-layout';
import { ErrorBoundaryView } from '@/ui/error-view/error-boundary-view';

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <BlankLayout>
      <ErrorBoundaryView error={error} reset={reset} />
    </BlankLayout>
  );
}
