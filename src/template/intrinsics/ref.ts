import {
  NO_VALUE,
  type EvaluationContext,
  type IntrinsicHandler,
  type ResourceResolver,
} from '../context.js';
import { evaluationError, TemplateErrorCode, TemplateEvaluationError } from '../errors.js';
import type { TemplatePath } from '../path.js';
import { describe } from './args.js';

/** `{ "Ref": name }`: a parameter, a pseudo-parameter, or a resource's physical id. */
export const evaluateRef: IntrinsicHandler = (args, ctx, path) => {
  if (typeof args !== 'string') throw evaluationError(path, `Ref expects a name, got a ${describe(args)}`);
  return resolveName(args, ctx, path, 'Ref');
};

/** Name lookup shared by Ref and Fn::Sub's `${Name}`. */
export function resolveName(name: string, ctx: EvaluationContext, path: TemplatePath, fn: string): unknown {
  const parameter = ctx.parameters.get(name);
  if (parameter !== undefined) return typeof parameter === 'string' ? parameter : [...parameter];
  if (name.startsWith('AWS::')) {
    if (name === 'AWS::NoValue') return NO_VALUE;
    const pseudo = ctx.pseudo.get(name);
    if (pseudo === undefined) throw evaluationError(path, `${fn} to unknown pseudo parameter "${name}"`);
    return typeof pseudo === 'string' ? pseudo : [...pseudo];
  }
  return resourceResolver(name, ctx, path, fn).ref(name);
}

/** The resolver for `logicalId`, after checking that this context may reference it. */
export function resourceResolver(
  logicalId: string,
  ctx: EvaluationContext,
  path: TemplatePath,
  fn: string,
): ResourceResolver {
  if (ctx.resources === undefined) {
    const scope = ctx.referenceScope ?? 'resources cannot be referenced here';
    throw evaluationError(path, `${fn} to "${logicalId}": not a parameter or pseudo parameter (${scope})`);
  }
  const removedBy = ctx.removedResources?.get(logicalId);
  if (removedBy !== undefined) {
    throw new TemplateEvaluationError(
      TemplateErrorCode.InvalidReference,
      path,
      `${fn} to "${logicalId}", which is not deployed because its condition ${removedBy} is false`,
      { hint: `Guard the reference with Fn::If on ${removedBy}, or give both the same condition.` },
    );
  }
  if (ctx.resourceIds !== undefined && !ctx.resourceIds.has(logicalId)) {
    throw new TemplateEvaluationError(
      TemplateErrorCode.InvalidReference,
      path,
      `${fn} to "${logicalId}": no parameter, pseudo parameter or resource has this name`,
    );
  }
  return ctx.resources;
}
