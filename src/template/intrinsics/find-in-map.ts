import type { IntrinsicHandler } from '../context.js';
import { evaluationError } from '../errors.js';
import { isPlainObject } from '../model.js';
import { childPath } from '../path.js';
import { argList, evalString } from './args.js';

/**
 * `Fn::FindInMap: [Map, TopKey, SecondKey, { DefaultValue }?]`. Keys may be intrinsics
 * (`Ref: AWS::Region`); DefaultValue is the AWS::LanguageExtensions fallback for a missing key.
 */
export const evaluateFindInMap: IntrinsicHandler = (args, ctx, path, evaluate) => {
  const list = argList('Fn::FindInMap', args, path, 3, 4);
  const fnPath = childPath(path, 'Fn::FindInMap');
  const [mapName, topKey, secondKey] = ['map name', 'top-level key', 'second-level key'].map((what, i) =>
    evalString(list[i], ctx, childPath(fnPath, i), evaluate, 'Fn::FindInMap', what),
  ) as [string, string, string];
  const options = list[3];
  if (options !== undefined && !(isPlainObject(options) && Object.hasOwn(options, 'DefaultValue'))) {
    throw evaluationError(path, 'Fn::FindInMap fourth argument must be { DefaultValue: ... }');
  }
  const map = ctx.mappings.get(mapName);
  const top = map && Object.hasOwn(map, topKey) ? map[topKey] : undefined;
  if (top && Object.hasOwn(top, secondKey)) {
    const value = top[secondKey];
    // Mapping data is shared by every lookup; hand out a copy the caller may change.
    return typeof value === 'object' && value !== null ? structuredClone(value) : value;
  }
  if (options !== undefined)
    return evaluate(options.DefaultValue, ctx, childPath(childPath(fnPath, 3), 'DefaultValue'));
  const missing = !map
    ? `mapping "${mapName}"`
    : !top
      ? `key "${topKey}" in mapping "${mapName}"`
      : `key "${secondKey}" under "${topKey}" in mapping "${mapName}"`;
  throw evaluationError(path, `Fn::FindInMap: no ${missing}`);
};
