import type { Context } from '@opentelemetry/api';
import type { tracing } from '@opentelemetry/sdk-node';

type ReadableSpan = tracing.ReadableSpan;
type Span = tracing.Span;
type SpanProcessor = tracing.SpanProcessor;

/**
 * Next opens about a dozen spans of its own per render (module loading, tree
 * building, ...). Exporting them all costs more CPU than the render's own
 * bookkeeping, so only its request, proxy and render spans are kept; they
 * still nest under ours.
 */
const KEPT_NEXT_SPANS = /^(?:[A-Z]+(?: |$)|middleware |render route )/;

export function keepSpan(span: Pick<ReadableSpan, 'name' | 'instrumentationScope'>): boolean {
  return span.instrumentationScope.name !== 'next.js' || KEPT_NEXT_SPANS.test(span.name);
}

export class NextSpanFilter implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    if (keepSpan(span)) this.next.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}
