import type { IncomingMessage } from 'node:http';
import { context, propagation, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from '@opentelemetry/semantic-conventions';

const tracer = trace.getTracer('meridian-server');

export interface ServerSpan {
  span: Span;
  context: Context;
}

/** Opens the request's server span, continuing an incoming W3C `traceparent`. */
export function startServerSpan(
  req: IncomingMessage,
  attributes: { method: string; path: string; scheme: string; clientAddress: string; userAgent: string },
): ServerSpan {
  const parent = propagation.extract(context.active(), req.headers);
  const span = tracer.startSpan(
    attributes.method,
    {
      kind: SpanKind.SERVER,
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: attributes.method,
        [ATTR_URL_PATH]: attributes.path,
        [ATTR_URL_SCHEME]: attributes.scheme,
        [ATTR_CLIENT_ADDRESS]: attributes.clientAddress,
        [ATTR_USER_AGENT_ORIGINAL]: attributes.userAgent,
      },
    },
    parent,
  );
  return { span, context: trace.setSpan(parent, span) };
}

/** Names the span by its route template once the status is known, and ends it. */
export function endServerSpan(span: Span, method: string, route: string, status: number): void {
  span.updateName(`${method} ${route}`);
  span.setAttribute(ATTR_HTTP_ROUTE, route);
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
