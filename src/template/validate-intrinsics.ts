import { intrinsicName, isIntrinsic, KNOWN_INTRINSICS, RULE_FUNCTIONS } from './evaluator.js';
import { parseSubString } from './intrinsics/sub.js';
import { isPlainObject } from './model.js';

/** One thing wrong with a template, at the JSON path of the offender. */
export interface TemplateProblem {
  path: string;
  message: string;
}

/** The names a template fragment may point at, and whether resources are among them. */
export interface ReferenceScope {
  parameters: ReadonlySet<string>;
  resources: ReadonlySet<string>;
  conditions: ReadonlySet<string>;
  /** False inside Conditions, where CloudFormation refuses references to resources. */
  resourcesAllowed: boolean;
}

/**
 * The syntax of every intrinsic function in `value`, checked before anything is evaluated:
 * argument shapes, Fn::Sub strings, and the names Ref, Fn::GetAtt, Fn::Sub and Fn::If point
 * at. Every problem is added to `out` with its JSON path; nothing is thrown.
 */
export function intrinsicProblems(
  value: unknown,
  path: string,
  scope: ReferenceScope,
  out: TemplateProblem[],
): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => intrinsicProblems(item, `${path}[${i}]`, scope, out));
    return;
  }
  if (!isPlainObject(value)) return;
  const fn = intrinsicName(value);
  if (fn === undefined) {
    for (const key of Object.keys(value)) intrinsicProblems(value[key], join(path, key), scope, out);
    return;
  }
  const args = value[fn];
  const at = join(path, fn);
  const problem = (message: string, where = at) => out.push({ path: where, message });
  const recurse = (item: unknown, where: string) => intrinsicProblems(item, where, scope, out);
  switch (fn) {
    case 'Ref':
      if (typeof args !== 'string' || args === '') problem('Ref takes a logical id or parameter name');
      else referTo(args, 'Ref', scope, problem, false);
      return;
    case 'Fn::GetAtt':
      return getAtt(args, at, scope, problem, recurse);
    case 'Fn::Sub':
      return sub(args, at, scope, problem, recurse);
    case 'Fn::If': {
      if (!list(args, 3, 3, fn, problem)) return;
      if (typeof args[0] !== 'string') problem('Fn::If takes a condition name first', `${at}[0]`);
      else if (!scope.conditions.has(args[0])) {
        problem(`Unresolved condition dependency ${args[0]} in Fn::If`, `${at}[0]`);
      }
      recurse(args[1], `${at}[1]`);
      recurse(args[2], `${at}[2]`);
      return;
    }
    default:
      break;
  }
  if (!KNOWN_INTRINSICS.includes(fn) || (RULE_FUNCTIONS as readonly string[]).includes(fn)) {
    if (fn === 'Fn::Transform' || fn.startsWith('Fn::ForEach')) return;
    problem(
      (RULE_FUNCTIONS as readonly string[]).includes(fn)
        ? `${fn} is only valid inside Rules`
        : `Encountered unsupported function: ${fn}`,
    );
    return;
  }
  const shape = SHAPES[fn];
  if (shape && !list(args, shape[0], shape[1], fn, problem)) return;
  if (fn === 'Fn::Join' && Array.isArray(args) && typeof args[0] !== 'string') {
    problem('Fn::Join takes a delimiter string first', `${at}[0]`);
  }
  if (fn === 'Fn::Split' && Array.isArray(args) && typeof args[0] !== 'string') {
    problem('Fn::Split takes a delimiter string first', `${at}[0]`);
  }
  if ((fn === 'Fn::Join' || fn === 'Fn::Select') && Array.isArray(args) && !listOrIntrinsic(args[1])) {
    problem(`${fn} takes a list second`, `${at}[1]`);
  }
  if (
    (fn === 'Fn::ImportValue' || fn === 'Fn::Base64' || fn === 'Fn::GetAZs') &&
    (Array.isArray(args) || (isPlainObject(args) && !isIntrinsic(args)))
  ) {
    problem(`${fn} takes a string or a function returning one`);
  }
  recurse(args, at);
}

/** Functions that take a list of a fixed length range: [min, max]. */
const SHAPES: Readonly<Record<string, readonly [number, number]>> = {
  'Fn::Join': [2, 2],
  'Fn::Select': [2, 2],
  'Fn::Split': [2, 2],
  'Fn::Equals': [2, 2],
  'Fn::And': [2, 10],
  'Fn::Or': [2, 10],
  'Fn::Not': [1, 1],
  'Fn::FindInMap': [3, 4],
  'Fn::Cidr': [3, 3],
};

function list(
  args: unknown,
  min: number,
  max: number,
  fn: string,
  problem: (message: string) => void,
): args is unknown[] {
  if (Array.isArray(args) && args.length >= min && args.length <= max) return true;
  const want = min === max ? `${min}` : `${min} to ${max}`;
  problem(`${fn} takes a list of ${want} arguments`);
  return false;
}

function listOrIntrinsic(value: unknown): boolean {
  return Array.isArray(value) || isIntrinsic(value);
}

function getAtt(
  args: unknown,
  at: string,
  scope: ReferenceScope,
  problem: (message: string, where?: string) => void,
  recurse: (item: unknown, where: string) => void,
): void {
  let target: unknown;
  if (typeof args === 'string') {
    const dot = args.indexOf('.');
    if (dot <= 0 || dot === args.length - 1) {
      problem('Fn::GetAtt takes "LogicalId.Attribute" or [LogicalId, Attribute]');
      return;
    }
    target = args.slice(0, dot);
  } else if (Array.isArray(args) && args.length === 2 && typeof args[0] === 'string') {
    target = args[0];
    if (typeof args[1] !== 'string' && !isIntrinsic(args[1])) {
      problem('Fn::GetAtt takes an attribute name second', `${at}[1]`);
    }
    recurse(args[1], `${at}[1]`);
  } else {
    problem('Fn::GetAtt takes "LogicalId.Attribute" or [LogicalId, Attribute]');
    return;
  }
  referTo(target as string, 'Fn::GetAtt', scope, problem, true);
}

function sub(
  args: unknown,
  at: string,
  scope: ReferenceScope,
  problem: (message: string, where?: string) => void,
  recurse: (item: unknown, where: string) => void,
): void {
  let text: unknown = args;
  let variables: Record<string, unknown> = {};
  if (Array.isArray(args)) {
    if (args.length < 1 || args.length > 2) {
      problem('Fn::Sub takes a string, or a list of a string and a map of variables');
      return;
    }
    text = args[0];
    if (args[1] !== undefined) {
      if (!isPlainObject(args[1]) || isIntrinsic(args[1])) {
        problem('Fn::Sub variables must be a map', `${at}[1]`);
        return;
      }
      variables = args[1];
      for (const [name, value] of Object.entries(variables)) recurse(value, join(`${at}[1]`, name));
    }
  }
  const where = Array.isArray(args) ? `${at}[0]` : at;
  if (typeof text !== 'string') {
    problem('Fn::Sub takes a string', where);
    return;
  }
  for (const placeholder of subPlaceholders(text, (message) => problem(message, where))) {
    if (Object.hasOwn(variables, placeholder)) continue;
    const dot = placeholder.indexOf('.');
    if (dot > 0) referTo(placeholder.slice(0, dot), 'Fn::Sub', scope, (m) => problem(m, where), true);
    else referTo(placeholder, 'Fn::Sub', scope, (m) => problem(m, where), false);
  }
}

/**
 * The `${Name}` placeholders of an Fn::Sub string, as the evaluator reads them; an unclosed
 * `${` (which the evaluator would keep as text) or an empty `${}` is reported.
 */
export function subPlaceholders(text: string, problem: (message: string) => void): string[] {
  for (let i = text.indexOf('${'); i >= 0; i = text.indexOf('${', i + 2)) {
    const end = text.indexOf('}', i + 2);
    if (end < 0) {
      problem(`Fn::Sub string has an unclosed "\${" at character ${i}: ${excerpt(text, i)}`);
      break;
    }
    if (text.slice(i + 2, end).trim() === '') problem(`Fn::Sub string has an empty "\${}" at character ${i}`);
    i = end - 1;
  }
  return parseSubString(text).flatMap((part) =>
    typeof part === 'string' || part.name === '' ? [] : [part.name],
  );
}

function referTo(
  name: string,
  via: string,
  scope: ReferenceScope,
  problem: (message: string) => void,
  attribute: boolean,
): void {
  if (!attribute && (name.startsWith('AWS::') || scope.parameters.has(name))) return;
  if (scope.resources.has(name)) {
    if (!scope.resourcesAllowed) problem(`${via} ${name}: Conditions cannot reference resources`);
    return;
  }
  problem(
    attribute
      ? `${via} names ${name}, which is not a resource of this template`
      : `Unresolved resource dependencies [${name}] in ${via}: no resource or parameter has that name`,
  );
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function excerpt(text: string, at: number): string {
  const piece = text.slice(at, at + 40);
  return JSON.stringify(piece.length < text.length - at ? `${piece}…` : piece);
}
