import jsonata from 'jsonata';
import { StatesError } from './errors.js';

/** What `$states` holds while a JSONata expression runs, and the variables in scope. */
export interface JsonataScope {
  states: Record<string, unknown>;
  variables: Record<string, unknown>;
}

const EXPRESSION = /^\{%([\s\S]*)%\}$/;

/**
 * A JSONata-mode template: a string `{% expression %}` is the expression's value; objects
 * and arrays are filled in throughout; anything else is kept as written. A failing
 * expression is States.QueryEvaluationError.
 */
export async function evaluateTemplate(template: unknown, scope: JsonataScope): Promise<unknown> {
  if (typeof template === 'string') {
    const match = EXPRESSION.exec(template.trim());
    return match ? evaluate(match[1]!, scope) : template;
  }
  if (Array.isArray(template)) return Promise.all(template.map((item) => evaluateTemplate(item, scope)));
  if (typeof template !== 'object' || template === null) return template;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(template as Record<string, unknown>)) {
    out[key] = await evaluateTemplate(value, scope);
  }
  return out;
}

async function evaluate(expression: string, scope: JsonataScope): Promise<unknown> {
  try {
    const compiled = jsonata(expression);
    return await compiled.evaluate({}, { ...scope.variables, states: scope.states });
  } catch (error) {
    const detail = error as { message?: string; position?: number };
    throw new StatesError(
      'States.QueryEvaluationError',
      `The JSONata expression '${expression.trim()}' failed: ${detail.message ?? String(error)}`,
    );
  }
}
