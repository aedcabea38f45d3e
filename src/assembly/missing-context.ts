import type { MissingContext } from '@aws-cdk/cloud-assembly-schema';
import { CdkdError, messageOf } from '../errors.js';
import type { ContextValues } from './context.js';

/** The query's props as the app wrote them (aws-cdk-lib adds dummyValue and ignoreErrorOnMissingContext). */
export type ContextQuery = Record<string, unknown> & { account?: string; region?: string };

/** A lookup's answer: the value to cache, or that the thing looked for does not exist (and why). */
export type LookupResult = { value: unknown } | { notFound: string };

/** The AWS look-ups synthesis may need; the CLI wires the SDK, so this layer never imports it. */
export interface ContextLookups {
  /** Whether cdkd can answer this provider's queries at all. */
  supports(provider: string): boolean;
  /**
   * One query. Throws when the lookup cannot run or its answer is unusable (several VPCs
   * match); a CdkdError passes through as it is, any other error names the key.
   */
  lookup(provider: string, query: ContextQuery): Promise<LookupResult>;
}

export interface ResolvedContext {
  /** Values to store in cdk.context.json. */
  save: ContextValues;
  /** Values for this synthesis only (a dummy for an absent value the app said to ignore). */
  transient: ContextValues;
}

/**
 * Looks up the context the app reported missing, as the CDK CLI does. Every entry is
 * checked for a provider cdkd supports before any call is made; `lookups` undefined
 * (--no-lookups) refuses, naming every key.
 */
export async function resolveMissingContext(
  missing: MissingContext[],
  lookups: ContextLookups | undefined,
): Promise<ResolvedContext> {
  if (!lookups) {
    throw new CdkdError(
      'CONTEXT_LOOKUPS_DISABLED',
      `The app needs context that is not in cdk.context.json, and lookups are off (--no-lookups): ${missing.map((entry) => entry.key).join(', ')}.`,
      {
        hint: 'Run once without --no-lookups where credentials can reach the account, and commit the cdk.context.json it writes.',
      },
    );
  }
  const unsupported = missing.filter((entry) => !lookups.supports(entry.provider));
  if (unsupported.length > 0) {
    const list = unsupported.map((entry) => `${providerName(entry)} for key "${entry.key}"`).join('; ');
    throw new CdkdError(
      'CONTEXT_LOOKUP_UNSUPPORTED',
      `The app needs context that cdkd cannot look up: ${list}.`,
      {
        hint: 'Put the value in cdk.context.json by hand, or run `cdk synth` once with the CDK CLI and its plugins to cache it there.',
      },
    );
  }
  const resolved: ResolvedContext = { save: {}, transient: {} };
  for (const entry of missing) {
    const query = entry.props as ContextQuery;
    const result = await lookupOne(lookups, entry, query);
    if ('value' in result) {
      resolved.save[entry.key] = result.value;
    } else if (query.ignoreErrorOnMissingContext === true && 'dummyValue' in query) {
      resolved.transient[entry.key] = query.dummyValue;
    } else {
      throw new CdkdError('CONTEXT_LOOKUP_FAILED', `${result.notFound} (context key "${entry.key}").`, {
        hint: 'Create it, or fix the lookup in the app; a value put in cdk.context.json is used as it is.',
      });
    }
  }
  return resolved;
}

async function lookupOne(
  lookups: ContextLookups,
  entry: MissingContext,
  query: ContextQuery,
): Promise<LookupResult> {
  try {
    return await lookups.lookup(entry.provider, query);
  } catch (cause) {
    if (cause instanceof CdkdError) throw cause;
    throw new CdkdError(
      'CONTEXT_LOOKUP_FAILED',
      `The ${entry.provider} lookup for context key "${entry.key}" (account ${query.account ?? '?'}, region ${query.region ?? '?'}) failed: ${messageOf(cause)}`,
      {
        hint: 'Check the credentials and their read permissions, or put the value in cdk.context.json.',
        cause,
      },
    );
  }
}

function providerName(entry: MissingContext): string {
  if (entry.provider === 'plugin') {
    const plugin = (entry.props as { pluginName?: string }).pluginName;
    return `the CDK CLI plugin "${plugin ?? '?'}"`;
  }
  return `provider "${entry.provider}"`;
}
