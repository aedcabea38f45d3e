import { randomUUID } from 'node:crypto';
import { sandboxSchemaFor } from '../../../resource-index.js';
import { el } from '../../../xml.js';
import { changesNothing, resourceChanges } from '../engine/changes.js';
import { runCreate } from '../engine/create.js';
import { importIdentifier, runImport } from '../engine/import.js';
import { buildProposal, type Proposal, type ProposalInput } from '../engine/proposal.js';
import { runUpdate } from '../engine/run-update.js';
import { beginUpdate } from '../engine/update.js';
import { newStack } from '../model/new-stack.js';
import { canUpdate, inReview } from '../model/status.js';
import type {
  ChangeSetRecord,
  ChangeSetType,
  ProposedUpdate,
  ResourceToImport,
  StackRecord,
} from '../model/types.js';
import { cfnErrors } from '../wire/errors.js';
import { changeSetSummaryXml, changeSetXml } from '../wire/render.js';
import { assertStackName, requireStack, type CfnCall, type CfnHandler } from './call.js';
import { requestInput } from './request-input.js';

const CHANGE_SET_NAME = /^[a-zA-Z][-a-zA-Z0-9]*$/;
const NO_CHANGES =
  "The submitted information didn't contain changes. Submit different information to create a change set.";

/** A change set by ARN, or by name on the stack the request names. */
export function findChangeSet(
  call: CfnCall,
  nameOrId: string,
): { stack: StackRecord; changeSet: ChangeSetRecord } {
  const { store } = call.engine.deps;
  const stacks = nameOrId.startsWith('arn:')
    ? store.inScope(call.scope)
    : [requireStack(call, call.params.optional('StackName') ?? nameOrId)];
  for (const stack of stacks) {
    const changeSet = stack.changeSets.find(
      (candidate) => candidate.changeSetId === nameOrId || candidate.changeSetName === nameOrId,
    );
    if (changeSet) return { stack, changeSet };
  }
  throw cfnErrors.changeSetNotFound(nameOrId);
}

function stackFor(
  call: CfnCall,
  type: ChangeSetType,
  stackName: string,
): { stack: StackRecord; isNew: boolean } {
  const existing = call.engine.deps.store.find(call.scope, stackName);
  if (type === 'CREATE' && existing && !inReview(existing)) throw cfnErrors.stackExists(stackName);
  if (type === 'UPDATE' && (!existing || inReview(existing))) {
    throw cfnErrors.validation(`Stack [${stackName}] does not exist`);
  }
  if (existing && !inReview(existing) && !canUpdate(existing)) {
    throw cfnErrors.wrongStatus(existing.stackId, existing.status, 'be updated');
  }
  if (existing) return { stack: existing, isNew: false };
  assertStackName(stackName);
  return { stack: newStack({ stackName, ...call.scope, status: 'REVIEW_IN_PROGRESS' }), isNew: true };
}

export const createChangeSet: CfnHandler = async (call) => {
  const { params, engine } = call;
  const stackName = params.required('StackName');
  const changeSetName = params.required('ChangeSetName');
  if (!CHANGE_SET_NAME.test(changeSetName) || changeSetName.length > 128) {
    throw cfnErrors.validation(
      `1 validation error detected: Value '${changeSetName}' at 'changeSetName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*`,
    );
  }
  const type = (params.optional('ChangeSetType') ?? 'UPDATE') as ChangeSetType;
  if (!['CREATE', 'UPDATE', 'IMPORT'].includes(type)) {
    throw cfnErrors.validation(
      `1 validation error detected: Value '${type}' at 'changeSetType' failed to satisfy constraint: Member must satisfy enum value set: [IMPORT, UPDATE, CREATE]`,
    );
  }
  const { stack, isNew } = stackFor(call, type, stackName);
  if (stack.changeSets.some((changeSet) => changeSet.changeSetName === changeSetName)) {
    throw cfnErrors.changeSetExists(changeSetName);
  }
  const input = await requestInput(call, isNew || inReview(stack) ? undefined : stack);
  const proposal = await buildProposal(engine.deps, stack, input);
  const toImport = params.resourcesToImport();
  if (type === 'IMPORT') checkImport(call, stack, proposal, toImport);
  else if (toImport.length > 0)
    throw cfnErrors.validation('ResourcesToImport can only be given with ChangeSetType IMPORT.');
  if (isNew) {
    await engine.deps.store.add(stack);
    await engine.deps.events.stack(stack, 'User Initiated');
  }
  const onStackFailure = params.optional('OnStackFailure');
  const disableRollback = onStackFailure === undefined ? undefined : onStackFailure === 'DO_NOTHING';
  const changeSet: ChangeSetRecord = {
    changeSetId: `arn:aws:cloudformation:${stack.region}:${stack.accountId}:changeSet/${changeSetName}/${randomUUID()}`,
    changeSetName,
    type,
    status: 'CREATE_PENDING',
    executionStatus: 'UNAVAILABLE',
    creationTime: new Date().toISOString(),
    ...(params.optional('Description') !== undefined ? { description: params.optional('Description') } : {}),
    proposed: proposedUpdate(input, proposal, toImport, disableRollback),
    changes: [],
    includeNestedStacks: params.flag('IncludeNestedStacks') ?? false,
  };
  stack.changeSets.push(changeSet);
  await engine.deps.store.save(stack);
  // CloudFormation works out the changes after answering; the client polls DescribeChangeSet.
  setImmediate(() => void computeChanges(call, stack, changeSet, proposal, toImport));
  return [el('Id', changeSet.changeSetId), el('StackId', stack.stackId)];
};

function proposedUpdate(
  input: ProposalInput,
  proposal: Proposal,
  toImport: ResourceToImport[],
  disableRollback: boolean | undefined,
): ProposedUpdate {
  return {
    templateBody: input.templateBody,
    parameters: proposal.generation.parameters,
    tags: input.tags,
    capabilities: input.capabilities,
    notificationArns: input.notificationArns,
    ...(input.roleArn !== undefined ? { roleArn: input.roleArn } : {}),
    ...(disableRollback !== undefined ? { disableRollback } : {}),
    ...(toImport.length > 0 ? { resourcesToImport: toImport } : {}),
  };
}

async function computeChanges(
  call: CfnCall,
  stack: StackRecord,
  changeSet: ChangeSetRecord,
  proposal: Proposal,
  toImport: ResourceToImport[],
): Promise<void> {
  changeSet.status = 'CREATE_IN_PROGRESS';
  try {
    changeSet.changes = resourceChanges(stack, proposal, call.engine.deps.provisioner, toImport);
    if (changeSet.type === 'UPDATE' && changesNothing(stack, proposal, changeSet.changes)) {
      changeSet.status = 'FAILED';
      changeSet.statusReason = NO_CHANGES;
    } else {
      changeSet.status = 'CREATE_COMPLETE';
      changeSet.executionStatus = 'AVAILABLE';
    }
  } catch (error) {
    changeSet.status = 'FAILED';
    changeSet.statusReason = error instanceof Error ? error.message : String(error);
  }
  await call.engine.deps.store.save(stack).catch(() => undefined);
}

/**
 * CloudFormation's checks on an IMPORT: each resource is in the template with its type and a
 * DeletionPolicy, is named by its primary identifier, exists, and belongs to no stack; and
 * the template changes nothing else.
 */
function checkImport(
  call: CfnCall,
  stack: StackRecord,
  proposal: Proposal,
  toImport: ResourceToImport[],
): void {
  if (toImport.length === 0)
    throw cfnErrors.validation('ResourcesToImport must be given for an IMPORT change set.');
  const { template } = proposal;
  const unpoliced: string[] = [];
  for (const resource of toImport) {
    const definition = template.resources.get(resource.logicalId);
    if (!definition || definition.type !== resource.type) {
      throw cfnErrors.validation(
        `Resource ${resource.logicalId} of type ${resource.type} to import is not in the template with that type.`,
      );
    }
    if (definition.deletionPolicy === undefined) unpoliced.push(resource.logicalId);
    const keys = sandboxSchemaFor(resource.type)?.id ?? [];
    const given = Object.keys(resource.identifier).sort();
    if (keys.length === 0 || given.join(',') !== [...keys].sort().join(',')) {
      throw cfnErrors.validation(
        `Invalid ResourceIdentifier for ${resource.logicalId}: ${resource.type} is identified by [${keys.join(', ')}]`,
      );
    }
    const identifier = importIdentifier(resource);
    if (!call.engine.deps.provisioner.read(stack, resource.type, identifier)) {
      throw cfnErrors.validation(
        `Resource of type '${resource.type}' with identifier '${identifier}' to import does not exist.`,
      );
    }
    const owner = call.engine.deps.store
      .inScope(call.scope)
      .find(
        (other) =>
          other.status !== 'DELETE_COMPLETE' &&
          Object.values(other.resources).some(
            (record) =>
              record.type === resource.type &&
              (record.identifier ?? record.physicalId) === identifier &&
              record.status !== 'DELETE_COMPLETE' &&
              record.status !== 'DELETE_SKIPPED',
          ),
      );
    if (owner) {
      throw cfnErrors.validation(
        `The resource ${identifier} of type ${resource.type} is already managed by stack ${owner.stackName}.`,
      );
    }
  }
  if (unpoliced.length > 0) {
    throw cfnErrors.validation(
      `The following resources to import [${unpoliced.join(', ')}] must have DeletionPolicy attribute specified in the template.`,
    );
  }
  const others = resourceChanges(stack, proposal, call.engine.deps.provisioner, toImport).filter(
    (change) => change.action !== 'Import',
  );
  if (others.length > 0) {
    throw cfnErrors.validation(
      `You have modified resources [${others.map((change) => change.logicalId).join(', ')}] in your template that are not being imported. Update, create or delete operations cannot be executed during import operations.`,
    );
  }
}

export const describeChangeSet: CfnHandler = async (call) => {
  const { stack, changeSet } = findChangeSet(call, call.params.required('ChangeSetName'));
  return changeSetXml(stack, changeSet);
};

export const listChangeSets: CfnHandler = async (call) => {
  const stack = requireStack(call);
  return [
    el(
      'Summaries',
      stack.changeSets.map((changeSet) => changeSetSummaryXml(stack, changeSet)),
    ),
  ];
};

/** Deleting a change set the stack does not have succeeds, as on AWS (the CDK CLI relies on it). */
export const deleteChangeSet: CfnHandler = async (call) => {
  const name = call.params.required('ChangeSetName');
  const stack = call.engine.deps.store.find(call.scope, call.params.optional('StackName') ?? name);
  if (stack && !stack.changeSets.some((c) => c.changeSetName === name || c.changeSetId === name)) return [];
  const { stack: owner, changeSet } = findChangeSet(call, name);
  if (changeSet.executionStatus === 'EXECUTE_IN_PROGRESS') {
    throw cfnErrors.changeSetDeleteStatus(changeSet.executionStatus);
  }
  owner.changeSets = owner.changeSets.filter((candidate) => candidate !== changeSet);
  await call.engine.deps.store.save(owner);
  return [];
};

export const executeChangeSet: CfnHandler = async (call) => {
  const { engine, params } = call;
  const { stack, changeSet } = findChangeSet(call, params.required('ChangeSetName'));
  if (changeSet.status !== 'CREATE_COMPLETE' || changeSet.executionStatus !== 'AVAILABLE') {
    throw cfnErrors.changeSetStatus(changeSet.changeSetId, changeSet.executionStatus);
  }
  if (changeSet.type === 'CREATE' ? !inReview(stack) : !inReview(stack) && !canUpdate(stack)) {
    throw cfnErrors.wrongStatus(stack.stackId, stack.status, 'be updated');
  }
  const { proposed } = changeSet;
  const proposal = await buildProposal(engine.deps, stack, {
    templateBody: proposed.templateBody,
    parameters: Object.fromEntries(proposed.parameters.map((parameter) => [parameter.key, parameter.value])),
    tags: proposed.tags,
    capabilities: proposed.capabilities,
    notificationArns: proposed.notificationArns,
    ...(proposed.roleArn !== undefined ? { roleArn: proposed.roleArn } : {}),
  });
  const disableRollback = params.flag('DisableRollback') ?? proposed.disableRollback ?? false;
  changeSet.executionStatus = 'EXECUTE_IN_PROGRESS';
  stack.changeSetId = changeSet.changeSetId;
  // Executing a change set deletes the stack's other change sets.
  stack.changeSets = [changeSet];
  await engine.deps.store.save(stack);
  const settle = async (succeeded: boolean) => {
    changeSet.executionStatus = succeeded ? 'EXECUTE_COMPLETE' : 'EXECUTE_FAILED';
    await engine.deps.store.save(stack);
  };
  engine.start(stack, async (op) => {
    if (changeSet.type === 'CREATE') {
      stack.disableRollback = disableRollback;
      Object.assign(stack, structuredClone(proposal.generation));
      await runCreate(op, proposal.evaluation, disableRollback ? 'DO_NOTHING' : 'ROLLBACK');
      await settle(stack.status === 'CREATE_COMPLETE');
    } else if (changeSet.type === 'UPDATE') {
      await runUpdate(op, proposal, disableRollback);
      await settle(stack.status === 'UPDATE_COMPLETE');
    } else {
      await beginUpdate(op, proposal.generation, 'IMPORT_IN_PROGRESS');
      await runImport(op, proposal.evaluation, proposed.resourcesToImport ?? []);
      await settle(stack.status === 'IMPORT_COMPLETE');
    }
  });
  return [];
};
