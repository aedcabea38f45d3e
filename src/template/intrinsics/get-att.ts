import type { IntrinsicHandler } from '../context.js';
import { evaluationError } from '../errors.js';
import { childPath } from '../path.js';
import { splitGetAttString } from '../yaml-tags.js';
import { argList, describe, evalString } from './args.js';
import { resourceResolver } from './ref.js';

/**
 * `Fn::GetAtt`: `["Res", "Attr"]` or `"Res.Attr"`. The attribute may itself hold dots
 * (`Endpoint.Address`) and, in the list form, may be a `Ref` to a parameter.
 */
export const evaluateGetAtt: IntrinsicHandler = (args, ctx, path, evaluate) => {
  let logicalId: string;
  let attribute: string;
  if (typeof args === 'string') {
    const split = splitGetAttString(args);
    if (!split) throw evaluationError(path, `Fn::GetAtt "${args}" must be "LogicalId.Attribute"`);
    [logicalId, attribute] = split;
  } else {
    const [id, attr] = argList('Fn::GetAtt', args, path, 2);
    if (typeof id !== 'string')
      throw evaluationError(path, `Fn::GetAtt logical id must be a string, got a ${describe(id)}`);
    logicalId = id;
    attribute = evalString(
      attr,
      ctx,
      childPath(childPath(path, 'Fn::GetAtt'), 1),
      evaluate,
      'Fn::GetAtt',
      'attribute',
    );
  }
  return resourceResolver(logicalId, ctx, path, 'Fn::GetAtt').getAtt(logicalId, attribute);
};
