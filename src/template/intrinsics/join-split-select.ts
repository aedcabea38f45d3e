import type { IntrinsicHandler } from '../context.js';
import { evaluationError } from '../errors.js';
import { childPath } from '../path.js';
import { argList, asString, evalInteger, evalList, evalString } from './args.js';

export const evaluateJoin: IntrinsicHandler = (args, ctx, path, evaluate) => {
  const [delimiter, list] = argList('Fn::Join', args, path, 2);
  const fnPath = childPath(path, 'Fn::Join');
  const sep = evalString(delimiter, ctx, childPath(fnPath, 0), evaluate, 'Fn::Join', 'delimiter');
  const items = evalList(list, ctx, childPath(fnPath, 1), evaluate, 'Fn::Join', 'second argument');
  return items.map((item, i) => asString(item, 'Fn::Join', `element ${i}`, path)).join(sep);
};

export const evaluateSelect: IntrinsicHandler = (args, ctx, path, evaluate) => {
  const [indexArg, listArg] = argList('Fn::Select', args, path, 2);
  const fnPath = childPath(path, 'Fn::Select');
  const index = evalInteger(indexArg, ctx, childPath(fnPath, 0), evaluate, 'Fn::Select', 'index');
  const list = evalList(listArg, ctx, childPath(fnPath, 1), evaluate, 'Fn::Select', 'second argument');
  if (index < 0 || index >= list.length) {
    throw evaluationError(path, `Fn::Select index ${index} out of range (list has ${list.length})`);
  }
  return list[index];
};

export const evaluateSplit: IntrinsicHandler = (args, ctx, path, evaluate) => {
  const [delimiter, source] = argList('Fn::Split', args, path, 2);
  const fnPath = childPath(path, 'Fn::Split');
  const sep = evalString(delimiter, ctx, childPath(fnPath, 0), evaluate, 'Fn::Split', 'delimiter');
  if (sep === '') throw evaluationError(path, 'Fn::Split delimiter must not be empty');
  return evalString(source, ctx, childPath(fnPath, 1), evaluate, 'Fn::Split', 'source').split(sep);
};
