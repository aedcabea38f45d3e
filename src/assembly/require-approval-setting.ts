import { CdkdError } from '../errors.js';
import { APPROVAL_LEVELS, type ApprovalLevel } from './approval-level.js';
import { readProjectConfig } from './project-config.js';

export const REQUIRE_APPROVAL_ENV = 'CDKD_REQUIRE_APPROVAL';

/**
 * --require-approval, then CDKD_REQUIRE_APPROVAL, then cdk.json's `requireApproval` in `cwd`,
 * then `broadening`, the CDK CLI's default. cdk.json is read only when the two before it are silent.
 */
export function requireApprovalSetting(input: {
  flag?: ApprovalLevel | undefined;
  env: NodeJS.ProcessEnv;
  cwd: string;
}): ApprovalLevel {
  if (input.flag !== undefined) return input.flag;
  const fromEnv = input.env[REQUIRE_APPROVAL_ENV];
  if (fromEnv !== undefined && fromEnv !== '') {
    if (APPROVAL_LEVELS.includes(fromEnv as ApprovalLevel)) return fromEnv as ApprovalLevel;
    throw new CdkdError(
      'APPROVAL_SETTING_INVALID',
      `${REQUIRE_APPROVAL_ENV}=${fromEnv} is not one of ${APPROVAL_LEVELS.join(', ')}.`,
      { hint: `Set ${REQUIRE_APPROVAL_ENV} to one of ${APPROVAL_LEVELS.join(', ')}, or unset it.` },
    );
  }
  return readProjectConfig(input.cwd).requireApproval ?? 'broadening';
}
