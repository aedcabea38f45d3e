import { it } from 'vitest';

/**
 * One `it` per spec rule, named with the rule's full wording. (`it.each`'s `$rule`
 * truncates long names in the report, which would break reading spec and test side by side.)
 */
export function ruleTable<T extends { rule: string }>(
  cases: readonly T[],
  check: (testCase: T) => void,
): void {
  for (const testCase of cases) it(testCase.rule, () => check(testCase));
}
