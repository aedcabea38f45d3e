import {
  ContextProvider,
  type MissingContext,
  type SSMParameterContextQuery,
} from '@aws-cdk/cloud-assembly-schema';
import { CdkdError } from '../errors.js';
import type { ContextValues } from './context.js';

export interface SsmParameterRequest {
  account: string;
  region: string;
  parameterName: string;
}

/** The AWS look-ups synthesis may need; the CLI wires the SDK, so this layer never imports it. */
export interface ContextLookups {
  /** SSM GetParameter's value; undefined when the parameter does not exist. */
  ssmParameter(request: SsmParameterRequest): Promise<string | undefined>;
}

/** aws-cdk-lib adds these to every lookup's props (ContextProvider.getValue). */
type SsmQuery = SSMParameterContextQuery & { dummyValue?: unknown; ignoreErrorOnMissingContext?: boolean };

export interface ResolvedContext {
  /** Values to store in cdk.context.json. */
  save: ContextValues;
  /** Values for this synthesis only (a dummy for an absent parameter the app said to ignore). */
  transient: ContextValues;
}

/**
 * Looks up the context the app reported missing. Every entry is checked for a
 * provider cdkd supports before any call is made.
 */
export async function resolveMissingContext(
  missing: MissingContext[],
  lookups: ContextLookups,
): Promise<ResolvedContext> {
  const unsupported = missing.filter((entry) => entry.provider !== ContextProvider.SSM_PARAMETER_PROVIDER);
  if (unsupported.length > 0) {
    const list = unsupported.map((entry) => `provider "${entry.provider}" for key "${entry.key}"`).join('; ');
    throw new CdkdError(
      'CONTEXT_LOOKUP_UNSUPPORTED',
      `The app needs context that cdkd cannot look up: ${list}.`,
      {
        hint: 'Put the value in cdk.context.json by hand, or run `cdk synth` once with the CDK CLI to cache it there.',
      },
    );
  }
  const resolved: ResolvedContext = { save: {}, transient: {} };
  for (const entry of missing) {
    const props = entry.props as SsmQuery;
    const request = { account: props.account, region: props.region, parameterName: props.parameterName };
    let value: string | undefined;
    try {
      value = await lookups.ssmParameter(request);
    } catch (cause) {
      if (cause instanceof CdkdError) throw cause;
      throw new CdkdError(
        'CONTEXT_LOOKUP_FAILED',
        `Could not read SSM parameter ${props.parameterName} (account ${props.account}, region ${props.region}) for context key "${entry.key}".`,
        {
          hint: 'Check the credentials and ssm:GetParameter permission, or put the value in cdk.context.json.',
          cause,
        },
      );
    }
    if (value !== undefined) {
      resolved.save[entry.key] = value;
    } else if (props.ignoreErrorOnMissingContext) {
      resolved.transient[entry.key] = props.dummyValue;
    } else {
      throw new CdkdError(
        'CONTEXT_LOOKUP_FAILED',
        `SSM parameter ${props.parameterName} does not exist in account ${props.account}, region ${props.region} (context key "${entry.key}").`,
        { hint: 'Create the parameter, or fix its name in the app.' },
      );
    }
  }
  return resolved;
}
