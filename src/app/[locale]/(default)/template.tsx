import type { ReactNode } from 'react';
import { PageTransition } from '@/ui/page-transition/page-transition';

export default function DefaultTemplate({ children }: { children: ReactNode }) {
  return <PageTransition>{children}</PageTransition>;
}
