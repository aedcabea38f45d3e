import type { Mappings } from './model.js';
import type { TemplatePath } from './path.js';

/** `Ref: AWS::NoValue` while evaluating; removed from the enclosing object or list. */
export const NO_VALUE: unique symbol = Symbol('AWS::NoValue');

/** A resolved parameter: lists for the List<...> / CommaDelimitedList types, else a string. */
export type ParameterValue = string | readonly string[];

/**
 * Resource references, answered by the engine from state (or by a test fake). `getAtt` may
 * return a list for list attributes (e.g. `Ipv6CidrBlocks`).
 */
export interface ResourceResolver {
  ref(logicalId: string): unknown;
  getAtt(logicalId: string, attribute: string): unknown;
}

/** Evaluates a nested value; may return NO_VALUE, which the caller drops. */
export type Evaluate = (value: unknown, ctx: EvaluationContext, path: TemplatePath) => unknown;

/**
 * One intrinsic function. `path` is where the `{ "Fn::X": args }` object sits; `evaluate` is
 * passed in (rather than imported) so intrinsic modules do not import the dispatcher.
 */
export type IntrinsicHandler = (
  args: unknown,
  ctx: EvaluationContext,
  path: TemplatePath,
  evaluate: Evaluate,
) => unknown;

export interface EvaluationContext {
  readonly parameters: ReadonlyMap<string, ParameterValue>;
  /** `AWS::Region` → value; `AWS::NoValue` is handled by the evaluator. */
  readonly pseudo: ReadonlyMap<string, ParameterValue>;
  readonly mappings: Mappings;
  /** Value of a named condition; throws for an unknown name. */
  condition(name: string, path: TemplatePath): boolean;
  /** Absent where resources may not be referenced (Conditions, Rules). */
  readonly resources?: ResourceResolver;
  /** Active resources; when set, a reference outside it is an error naming the target. */
  readonly resourceIds?: ReadonlySet<string>;
  /** Resources a false condition removed: logical id → condition name. */
  readonly removedResources?: ReadonlyMap<string, string>;
  /** Returns undefined when no stack exports `name`. */
  importValue?(name: string): unknown;
  getAZs?(region: string): readonly string[];
  /** Functions valid only in this context (the rule functions inside Rules). */
  readonly extraFunctions?: Readonly<Record<string, IntrinsicHandler>>;
  /** Why resources may not be referenced here, for the error message. */
  readonly referenceScope?: string;
}
