import { CdkdError } from '../../errors.js';
import type { ExternalResolver } from '../../template/index.js';
import type { ExportIndex } from '../export-index.js';
import type { StackState } from '../../stack-state/index.js';

/** What a reference to a resource not made yet evaluates to while planning. */
export const PENDING_PREFIX = '{{cdkd:pending:';

export function pendingValue(logicalId: string, attribute?: string): string {
  return `${PENDING_PREFIX}${attribute ? `${logicalId}.${attribute}` : logicalId}}}`;
}

export function holdsPendingValue(value: unknown): boolean {
  return JSON.stringify(value ?? null).includes(PENDING_PREFIX);
}

/**
 * Answers Ref / Fn::GetAtt / Fn::ImportValue from the in-memory state and the
 * export index. While planning (`pending`), a resource not made yet answers a
 * placeholder; while deploying, such a reference is an error (the DAG makes it
 * unreachable unless state is wrong). A custom resource's NoEcho Data answers masked, as
 * state records it, unless `reveal`: only for the properties sent to AWS and their hash.
 */
export function stateResolver(
  state: StackState,
  exports: ExportIndex,
  options: { pending: boolean; imported?: Set<string>; reveal?: boolean },
): ExternalResolver {
  return {
    ref(logicalId) {
      const record = state.record(logicalId);
      if (record) return record.ref ?? record.physicalId;
      if (options.pending) return pendingValue(logicalId);
      throw notMade(logicalId);
    },
    getAtt(logicalId, attribute) {
      const record = state.record(logicalId);
      if (record && Object.hasOwn(record.attributes, attribute)) {
        return options.reveal ? state.attribute(logicalId, attribute) : record.attributes[attribute];
      }
      if (options.pending) return pendingValue(logicalId, attribute);
      if (!record) throw notMade(logicalId);
      throw new CdkdError(
        'ATTRIBUTE_UNAVAILABLE',
        `${logicalId} (${record.type}) has no attribute ${attribute} recorded.`,
        {
          hint: `Check the attribute name against the ${record.type} documentation; a provider that cannot return it needs fixing.`,
        },
      );
    },
    importValue(name) {
      const value = exports.value(name);
      if (value !== undefined) options.imported?.add(name);
      return value;
    },
  };
}

function notMade(logicalId: string): CdkdError {
  return new CdkdError('RESOURCE_NOT_MADE', `${logicalId} is referenced before it was made.`, {
    hint: 'This is a cdkd bug: the dependency graph should order it first. Re-run with --verbose and report it.',
  });
}
