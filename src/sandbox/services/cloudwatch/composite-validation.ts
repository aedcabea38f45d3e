import { cloudWatchErrors } from './cloudwatch-errors.js';

type Input = Record<string, unknown>;

const RULE_REFERENCE = /\b(?:ALARM|OK|INSUFFICIENT_DATA)\(\s*("?)([^)"]+)\1\s*\)/g;

/**
 * PutCompositeAlarm's checks: a name and a rule, and every alarm the rule names (by name or
 * ARN) existing, as AWS refuses a rule over alarms it does not hold.
 */
export function validateCompositeAlarm(input: Input, exists: (name: string) => boolean): void {
  if (typeof input.AlarmName !== 'string' || input.AlarmName === '')
    throw cloudWatchErrors.missing('AlarmName');
  const rule = input.AlarmRule;
  if (typeof rule !== 'string' || rule === '') throw cloudWatchErrors.missing('AlarmRule');
  if (rule.length > 10240) {
    throw cloudWatchErrors.validation(
      "1 validation error detected: Value at 'alarmRule' failed to satisfy constraint: Member must have length less than or equal to 10240",
    );
  }
  const missing = ruleReferences(rule).filter((name) => !exists(name));
  if (missing.length > 0) {
    throw cloudWatchErrors.validation(
      `Could not save the composite alarm as alarms [${missing.join(', ')}] in the alarm rule do not exist`,
    );
  }
  const waits = ['ActionsSuppressorWaitPeriod', 'ActionsSuppressorExtensionPeriod'].filter(
    (member) => input[member] !== undefined,
  );
  if (input.ActionsSuppressor === undefined ? waits.length > 0 : waits.length < 2) {
    throw cloudWatchErrors.validation(
      'ActionsSuppressor, ActionsSuppressorWaitPeriod and ActionsSuppressorExtensionPeriod must be specified together',
    );
  }
}

/** The alarm names a rule reads (an ARN stands for the name after `:alarm:`), each once. */
export function ruleReferences(rule: string): string[] {
  const names = [...rule.matchAll(RULE_REFERENCE)].map((match) => {
    const target = match[2]!.trim();
    const arnName = /^arn:[^:]+:cloudwatch:[^:]*:[^:]*:alarm:(.+)$/.exec(target);
    return arnName ? arnName[1]! : target;
  });
  return [...new Set(names)];
}
