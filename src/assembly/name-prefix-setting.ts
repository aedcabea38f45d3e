import { CdkdError } from '../errors.js';
import { readProjectConfig } from './project-config.js';

export const NAME_PREFIX_ENV = 'CDKD_PREFIX_USER_SUPPLIED_NAMES';

/** Whether explicit names of the rewriting types get the stack-name prefix, and where that was decided. */
export interface NamePrefixSetting {
  value: boolean;
  source: 'flag' | 'env' | 'cdk.json' | 'default';
}

/**
 * --prefix-user-supplied-names, then CDKD_PREFIX_USER_SUPPLIED_NAMES, then cdk.json's
 * `prefixUserSuppliedNames` in `cwd`, then the default: no prefix (spec 001, "Names of
 * re-created resources"). cdk.json is read only when the two before it are silent.
 */
export function namePrefixSetting(input: {
  flag?: boolean | undefined;
  env: NodeJS.ProcessEnv;
  cwd: string;
}): NamePrefixSetting {
  if (input.flag !== undefined) return { value: input.flag, source: 'flag' };
  const fromEnv = envValue(input.env[NAME_PREFIX_ENV]);
  if (fromEnv !== undefined) return { value: fromEnv, source: 'env' };
  const fromConfig = readProjectConfig(input.cwd).prefixUserSuppliedNames;
  if (fromConfig !== undefined) return { value: fromConfig, source: 'cdk.json' };
  return { value: false, source: 'default' };
}

/** How a setting reads in a message: `the prefix (from cdk.json)`. */
export function describeNamePrefix(setting: NamePrefixSetting): string {
  const choice = setting.value ? 'the stack-name prefix' : 'no prefix';
  const from =
    setting.source === 'flag'
      ? '--prefix-user-supplied-names'
      : setting.source === 'env'
        ? NAME_PREFIX_ENV
        : setting.source === 'cdk.json'
          ? 'cdk.json'
          : 'the default';
  return `${choice} (from ${from})`;
}

function envValue(raw: string | undefined): boolean | undefined {
  if (raw === undefined || raw === '') return undefined;
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new CdkdError('PREFIX_SETTING_INVALID', `${NAME_PREFIX_ENV}=${raw} is neither true nor false.`, {
    hint: `Set ${NAME_PREFIX_ENV} to true or false, or unset it.`,
  });
}
