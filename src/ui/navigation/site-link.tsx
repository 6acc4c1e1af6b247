import Link from 'next/link';
import type { ComponentProps } from 'react';

/**
 * next/link without its own prefetching: which router payloads a page
 * prefetches is decided once, from the build's route manifest (prerendered
 * pages of the current locale; see src/freshness/build-freshness.tsx).
 */
export function SiteLink(props: Omit<ComponentProps<typeof Link>, 'prefetch'>) {
  return <Link {...props} prefetch={false} />;
}
