import { parser } from '@prometheus-io/lezer-promql';

type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];

export interface LabelMatcher {
  label: string;
  op: '=' | '!=' | '=~' | '!~';
  value: string;
}

/** A vector selector: the metric it names (if any) and its label matchers. */
export interface VectorSelector {
  metric: string | undefined;
  matchers: LabelMatcher[];
}

/**
 * The syntax tree of an expression, from the grammar Prometheus's own UI uses. Whether
 * Prometheus accepts an expression is promtool's call; this is for reading what it names.
 */
function parse(expr: string): SyntaxNode {
  const tree = parser.parse(expr);
  let error: number | undefined;
  tree.iterate({
    enter: (node) => {
      if (node.type.isError && error === undefined) error = node.from;
    },
  });
  if (error !== undefined) throw new Error(`promql: cannot parse at character ${error} of: ${expr}`);
  return tree.topNode;
}

function descendants(node: SyntaxNode, name: string): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  const cursor = node.cursor();
  while (cursor.next() && cursor.from < node.to) {
    if (cursor.name === name) found.push(cursor.node);
  }
  return found;
}

/** PromQL strings here are double-quoted with Go escapes, which JSON reads alike. */
function unquote(literal: string): string {
  if (!literal.startsWith('"')) throw new Error(`promql: only double-quoted strings are read, got ${literal}`);
  return JSON.parse(literal) as string;
}

function matcherOf(node: SyntaxNode, expr: string): LabelMatcher {
  const text = (child: string) => {
    const found = node.getChild(child);
    if (!found) throw new Error(`promql: a label matcher without ${child} in: ${expr}`);
    return expr.slice(found.from, found.to);
  };
  return { label: text('LabelName'), op: text('MatchOp') as LabelMatcher['op'], value: unquote(text('StringLiteral')) };
}

/** Every vector selector of an expression, nested ones included. */
export function vectorSelectors(expr: string): VectorSelector[] {
  return descendants(parse(expr), 'VectorSelector').map((selector) => {
    const identifier = selector.getChild('Identifier');
    return {
      metric: identifier ? expr.slice(identifier.from, identifier.to) : undefined,
      matchers: descendants(selector, 'UnquotedLabelMatcher').map((matcher) => matcherOf(matcher, expr)),
    };
  });
}

/** Labels an expression groups or matches by (`by`, `without`, `on`, `ignoring`, `group_left`). */
export function groupingLabels(expr: string): string[] {
  return descendants(parse(expr), 'GroupingLabels').flatMap((grouping) =>
    descendants(grouping, 'LabelName').map((label) => expr.slice(label.from, label.to)),
  );
}
