import { CdkdError, type CdkdErrorOptions } from '../errors.js';
import { formatPath, type TemplatePath } from './path.js';

/** Codes raised by src/template; the CLI renders them as `Error [CODE]: message`. */
export const TemplateErrorCode = {
  Parse: 'TEMPLATE_PARSE_ERROR',
  Invalid: 'TEMPLATE_INVALID',
  Evaluation: 'TEMPLATE_EVALUATION_ERROR',
  UnknownIntrinsic: 'UNKNOWN_INTRINSIC',
  ImportNotFound: 'IMPORT_NOT_FOUND',
  ParameterMissing: 'PARAMETER_MISSING',
  ParameterInvalid: 'PARAMETER_INVALID',
  ParameterUnknown: 'PARAMETER_UNKNOWN',
  SsmParameterUnresolved: 'SSM_PARAMETER_UNRESOLVED',
  ConditionCycle: 'CONDITION_CYCLE',
  RuleAssertionFailed: 'RULE_ASSERTION_FAILED',
  RuleFunctionUnavailable: 'RULE_FUNCTION_UNAVAILABLE',
  InvalidReference: 'INVALID_REFERENCE',
  DependencyCycle: 'DEPENDENCY_CYCLE',
} as const;
export type TemplateErrorCode = (typeof TemplateErrorCode)[keyof typeof TemplateErrorCode];

/**
 * Any failure tied to a place in the template. The message starts with that place
 * (`Resources.Fn.Properties.X: ...`) so the user can find it without a debugger.
 */
export class TemplateEvaluationError extends CdkdError {
  readonly path: string;
  readonly detail: string;

  constructor(
    code: TemplateErrorCode,
    path: TemplatePath | string,
    detail: string,
    options?: CdkdErrorOptions,
  ) {
    const where = typeof path === 'string' ? path : formatPath(path);
    super(code, where === '' ? detail : `${where}: ${detail}`, options);
    this.name = 'TemplateEvaluationError';
    this.path = where;
    this.detail = detail;
  }
}

/** The common case: a generic evaluation failure at `path`. */
export function evaluationError(path: TemplatePath, detail: string): TemplateEvaluationError {
  return new TemplateEvaluationError(TemplateErrorCode.Evaluation, path, detail);
}
