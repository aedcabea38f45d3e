import type { IntrinsicHandler } from '../context.js';
import { TemplateErrorCode, TemplateEvaluationError } from '../errors.js';
import { childPath } from '../path.js';
import { evalList, evalString } from './args.js';

export const evaluateBase64: IntrinsicHandler = (args, ctx, path, evaluate) =>
  Buffer.from(
    evalString(args, ctx, childPath(path, 'Fn::Base64'), evaluate, 'Fn::Base64', 'argument'),
    'utf8',
  ).toString('base64');

/** CloudFormation's AZ names are the region plus a letter; the caller can supply real ones. */
export function letterSuffixAZs(count = 3): (region: string) => string[] {
  return (region) => Array.from({ length: count }, (_, i) => `${region}${String.fromCharCode(97 + i)}`);
}

const defaultGetAZs = letterSuffixAZs();

/** `Fn::GetAZs: ""` means the stack's region. */
export const evaluateGetAZs: IntrinsicHandler = (args, ctx, path, evaluate) => {
  const region = evalString(args, ctx, childPath(path, 'Fn::GetAZs'), evaluate, 'Fn::GetAZs', 'region');
  const target = region === '' ? ctx.pseudo.get('AWS::Region') : region;
  if (typeof target !== 'string')
    throw new TemplateEvaluationError(TemplateErrorCode.Evaluation, path, 'Fn::GetAZs: no region');
  return [...(ctx.getAZs ?? defaultGetAZs)(target)];
};

export const evaluateImportValue: IntrinsicHandler = (args, ctx, path, evaluate) => {
  const name = evalString(
    args,
    ctx,
    childPath(path, 'Fn::ImportValue'),
    evaluate,
    'Fn::ImportValue',
    'export name',
  );
  const value = ctx.importValue?.(name);
  if (value === undefined) {
    throw new TemplateEvaluationError(
      TemplateErrorCode.ImportNotFound,
      path,
      `Fn::ImportValue: no stack in this account and region exports "${name}"`,
      { hint: 'Deploy the stack that exports it first (cdkd deploy <producer stack>), or fix the name.' },
    );
  }
  return value;
};

/** AWS::LanguageExtensions: the number of elements of a list. */
export const evaluateLength: IntrinsicHandler = (args, ctx, path, evaluate) =>
  evalList(args, ctx, childPath(path, 'Fn::Length'), evaluate, 'Fn::Length', 'argument').length;

/** AWS::LanguageExtensions: the evaluated object or list as compact JSON. */
export const evaluateToJsonString: IntrinsicHandler = (args, ctx, path, evaluate) =>
  JSON.stringify(evaluate(args, ctx, childPath(path, 'Fn::ToJsonString')));
