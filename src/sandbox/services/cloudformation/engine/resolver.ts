import type { ExternalResolver } from '../../../../template/index.js';
import type { StackStore } from '../model/store.js';
import type { StackRecord, StackResourceRecord } from '../model/types.js';
import { exportsIn } from './exports.js';
import { StepFailure } from './failures.js';

/**
 * Ref and Fn::GetAtt read the stack's resource records; Fn::ImportValue reads the exports
 * of the account and region, and notes each name it read (ListImports).
 */
export function stackResolver(store: StackStore, stack: StackRecord, imports: Set<string>): ExternalResolver {
  const scope = { region: stack.region, accountId: stack.accountId };
  const made = (logicalId: string): StackResourceRecord => {
    const record = stack.resources[logicalId];
    if (record?.physicalId === undefined) {
      throw new StepFailure(`Template error: resource ${logicalId} has not been created`);
    }
    return record;
  };
  return {
    ref: (logicalId) => made(logicalId).physicalId,
    getAtt: (logicalId, attribute) => {
      const value = attributeValue(made(logicalId), attribute);
      if (value === undefined) {
        throw new StepFailure(
          `Template error: resource ${logicalId} does not support attribute type ${attribute} in Fn::GetAtt`,
        );
      }
      return value;
    },
    importValue: (name) => {
      imports.add(name);
      return exportsIn(store, scope).find((entry) => entry.name === name)?.value;
    },
  };
}

/** An attribute by its name (`Arn`, `Outputs.Name`) or its dotted path into the model (`Endpoint.Address`). */
export function attributeValue(record: StackResourceRecord, attribute: string): unknown {
  if (Object.hasOwn(record.attributes, attribute)) return record.attributes[attribute];
  let current: unknown = record.attributes;
  for (const segment of attribute.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}
