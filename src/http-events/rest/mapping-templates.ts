/**
 * Mapping templates as far as cdkd evaluates them: references to `$context.…`,
 * `$stageVariables.…`, `$input.params('name')`, `$input.body` and `$input.json('$')` (also
 * in `${…}` form) are replaced; Velocity directives (`#set`, `#if`, `#foreach` …) are not
 * evaluated, and a template using one is refused by name rather than answered wrongly.
 */

export interface TemplateInput {
  context: Record<string, unknown>;
  stageVariables: Record<string, string>;
  /** Path, query string and header parameters, looked up in that order by `$input.params`. */
  params: (name: string) => string | undefined;
  body: string;
}

export type TemplateResult = { kind: 'text'; text: string } | { kind: 'unsupported'; directive: string };

const DIRECTIVE =
  /(^|[^\\])#(set|if|elseif|else|end|foreach|break|stop|macro|parse|include|define|evaluate)\b/;

const REFERENCE =
  /\$!?\{?(context(?:\.[A-Za-z0-9_]+)+|stageVariables\.[A-Za-z0-9_]+|input\.params\('([^']*)'\)|input\.body|input\.json\('\$'\))\}?/g;

export function renderTemplate(template: string, input: TemplateInput): TemplateResult {
  const directive = DIRECTIVE.exec(template);
  if (directive) return { kind: 'unsupported', directive: `#${directive[2]}` };
  const text = template.replace(REFERENCE, (whole, reference: string, param: string | undefined) => {
    if (param !== undefined) return input.params(param) ?? '';
    if (reference === 'input.body') return input.body;
    if (reference === "input.json('$')") return input.body === '' ? '{}' : input.body;
    if (reference.startsWith('stageVariables.')) return input.stageVariables[reference.slice(15)] ?? '';
    const value = reference
      .split('.')
      .slice(1)
      .reduce<unknown>(
        (at, part) =>
          typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[part] : undefined,
        input.context,
      );
    if (value === undefined) return whole.startsWith('$!') ? '' : whole;
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
  return { kind: 'text', text };
}
