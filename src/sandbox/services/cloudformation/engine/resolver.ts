import type { ExternalResolver } from '../../../../template/index.js';
import type { ResourceHandlers } from '../../../resources.js';
import { hasDerivedAttributes } from '../../cloudcontrol/derived-attributes.js';
import type { StackStore } from '../model/store.js';
import type { StackRecord, StackResourceRecord } from '../model/types.js';
import { exportsIn } from './exports.js';
import { StepFailure } from './failures.js';
import { identifierOf } from './provisioner.js';

/**
 * Ref and Fn::GetAtt read the stack's resource records; Fn::ImportValue reads the exports
 * of the account and region, and notes each name it read (ListImports). Fn::GetAtt reads a
 * resource whose values other resources change after it is made (a VPC's IPv6 blocks, which
 * its VPCCidrBlock associates) afresh from `resources`, as CloudFormation answers them.
 */
export function stackResolver(
  store: StackStore,
  stack: StackRecord,
  imports: Set<string>,
  resources: ResourceHandlers,
): ExternalResolver {
  const scope = { region: stack.region, accountId: stack.accountId };
  const current = (record: StackResourceRecord): StackResourceRecord => {
    if (!hasDerivedAttributes(record.type)) return record;
    const model = resources.resolve(record.type)?.read(identifierOf(record), stack.region, stack.accountId);
    return model ? { ...record, attributes: model } : record;
  };
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
      const value = attributeValue(current(made(logicalId)), attribute);
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
