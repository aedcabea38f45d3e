/** The cdk.json context key cdkd reads the setting from, the way CDK feature flags are set. */
export const PREFIX_CONTEXT_KEY = '@cdkd/prefix-user-supplied-names';
export const PREFIX_ENV_VAR = 'CDKD_PREFIX_USER_SUPPLIED_NAMES';

export interface PrefixSetting {
  value: boolean;
  source: 'journal' | 'env' | 'cdk.json' | 'default';
  /** Present whenever the journal did not record the setting. */
  warning?: string;
}

/**
 * Whether a re-create prefixes user-supplied names (spec 001, "Names of re-created
 * resources"): as the journal recorded for the failed deploy; for an older cdkd's journal,
 * from CDKD_PREFIX_USER_SUPPLIED_NAMES, then cdk.json, then the default (no prefix).
 *
 * In cdk.json, `context["@cdkd/prefix-user-supplied-names"]` is read first (where CDK apps
 * keep flags, and `--context` can set it), then a top-level `prefixUserSuppliedNames`.
 * `cdkJson` is the parsed file; anything unreadable there counts as absent.
 */
export function prefixSetting(input: {
  journaled?: boolean;
  env?: string;
  cdkJson?: unknown;
  /** Named in the warning's fix; `<stack>` when absent. */
  stackName?: string;
}): PrefixSetting {
  if (input.journaled !== undefined) return { value: input.journaled, source: 'journal' };
  const fromEnv = parseFlag(input.env);
  const fromFile = fromEnv === undefined ? fromCdkJson(input.cdkJson) : undefined;
  const chosen: Omit<PrefixSetting, 'warning'> =
    fromEnv !== undefined
      ? { value: fromEnv, source: 'env' }
      : fromFile !== undefined
        ? { value: fromFile, source: 'cdk.json' }
        : { value: false, source: 'default' };
  return { ...chosen, warning: warning(chosen, input.stackName ?? '<stack>') };
}

function warning(chosen: Omit<PrefixSetting, 'warning'>, stackName: string): string {
  const where =
    chosen.source === 'env'
      ? PREFIX_ENV_VAR
      : chosen.source === 'cdk.json'
        ? 'cdk.json in the current directory'
        : 'the default';
  const setting = chosen.value ? 'with the prefix' : 'without the prefix';
  return `This journal was written by an older cdkd and does not record --prefix-user-supplied-names; re-creating names ${setting}, taken from ${where}. If the failed deploy ran with the prefix, run: ${PREFIX_ENV_VAR}=true cdkd rollback ${stackName}`;
}

function fromCdkJson(cdkJson: unknown): boolean | undefined {
  if (!isObject(cdkJson)) return undefined;
  const context = cdkJson.context;
  const fromContext = isObject(context) ? parseFlag(context[PREFIX_CONTEXT_KEY]) : undefined;
  return fromContext ?? parseFlag(cdkJson.prefixUserSuppliedNames);
}

/** A boolean, or its spelling as an environment or `--context` string; anything else is unset. */
function parseFlag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
