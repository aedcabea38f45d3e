import type { IntrinsicHandler } from '../context.js';
import { evaluationError } from '../errors.js';
import { isPlainObject } from '../model.js';
import { childPath } from '../path.js';
import { argList, asString, describe } from './args.js';
import { resolveName, resourceResolver } from './ref.js';

/** A piece of an Fn::Sub string: literal text, or a `${Name}` / `${Res.Attr}` placeholder. */
export type SubPart = string | { readonly name: string };

// Sub strings repeat across resources (ARN patterns), and parsing is pure, so memoise.
const parsed = new Map<string, readonly SubPart[]>();

/** `${!Literal}` is the escape for a literal `${Literal}`; an unclosed `${` is literal text. */
export function parseSubString(text: string): readonly SubPart[] {
  const cached = parsed.get(text);
  if (cached) return cached;
  const parts: SubPart[] = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf('${', i);
    const end = start < 0 ? -1 : text.indexOf('}', start + 2);
    if (start < 0 || end < 0) {
      literal += text.slice(i);
      break;
    }
    literal += text.slice(i, start);
    const inner = text.slice(start + 2, end);
    if (inner.startsWith('!')) {
      literal += `\${${inner.slice(1)}}`;
    } else {
      if (literal !== '') parts.push(literal);
      literal = '';
      parts.push({ name: inner.trim() });
    }
    i = end + 1;
  }
  if (literal !== '') parts.push(literal);
  if (parsed.size > 10_000) parsed.clear();
  parsed.set(text, parts);
  return parts;
}

/** Splits `Res.Attr.Sub` at the first dot; undefined for a plain name. */
export function subPlaceholderTarget(name: string): [string, string] | undefined {
  const dot = name.indexOf('.');
  return dot > 0 ? [name.slice(0, dot), name.slice(dot + 1)] : undefined;
}

export const evaluateSub: IntrinsicHandler = (args, ctx, path, evaluate) => {
  const fnPath = childPath(path, 'Fn::Sub');
  let text: unknown = args;
  let vars: Record<string, unknown> = {};
  if (Array.isArray(args)) {
    const [first, second] = argList('Fn::Sub', args, path, 1, 2);
    text = first;
    if (second !== undefined) {
      if (!isPlainObject(second)) {
        throw evaluationError(path, `Fn::Sub variables must be an object, got a ${describe(second)}`);
      }
      vars = second;
    }
  }
  if (typeof text !== 'string')
    throw evaluationError(path, `Fn::Sub expects a string, got a ${describe(text)}`);
  let out = '';
  for (const part of parseSubString(text)) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const name = part.name;
    let value: unknown;
    if (Object.hasOwn(vars, name)) {
      value = evaluate(vars[name], ctx, childPath(childPath(fnPath, 1), name));
    } else {
      const target = subPlaceholderTarget(name);
      value = target
        ? resourceResolver(target[0], ctx, path, 'Fn::Sub').getAtt(target[0], target[1])
        : resolveName(name, ctx, path, 'Fn::Sub');
    }
    out += asString(value, 'Fn::Sub', `value of \${${name}}`, path);
  }
  return out;
};
