import { el } from '../../../xml.js';
import { changesNothing, resourceChanges } from '../engine/changes.js';
import { rollBackCreate, runCreate, type OnFailure } from '../engine/create.js';
import { runDelete } from '../engine/delete.js';
import { importersOf } from '../engine/exports.js';
import { buildProposal } from '../engine/proposal.js';
import { runUpdate } from '../engine/run-update.js';
import { rollbackUpdate, skipResources } from '../engine/update-rollback.js';
import { newStack } from '../model/new-stack.js';
import { canDelete, canRollBack, canUpdate, inReview } from '../model/status.js';
import { cfnErrors } from '../wire/errors.js';
import { stackSummaryXml, stackXml } from '../wire/render.js';
import { assertStackName, requireStack, type CfnHandler } from './call.js';
import { requestInput } from './request-input.js';

const ON_FAILURE: readonly OnFailure[] = ['ROLLBACK', 'DELETE', 'DO_NOTHING'];

export const createStack: CfnHandler = async (call) => {
  const { params, scope, engine } = call;
  const stackName = params.required('StackName');
  assertStackName(stackName);
  if (engine.deps.store.find(scope, stackName)) throw cfnErrors.stackExists(stackName);
  const disableRollback = params.flag('DisableRollback');
  const onFailureParam = params.optional('OnFailure');
  if (disableRollback !== undefined && onFailureParam !== undefined) {
    throw cfnErrors.validation('You cannot specify both DisableRollback and OnFailure.');
  }
  const onFailure = (onFailureParam ?? (disableRollback ? 'DO_NOTHING' : 'ROLLBACK')) as OnFailure;
  if (!ON_FAILURE.includes(onFailure)) {
    throw cfnErrors.validation(
      `1 validation error detected: Value '${onFailure}' at 'onFailure' failed to satisfy constraint: Member must satisfy enum value set: [DO_NOTHING, ROLLBACK, DELETE]`,
    );
  }
  if (params.parameters().some((parameter) => parameter.usePreviousValue)) {
    throw cfnErrors.validation('UsePreviousValue cannot be specified when creating a stack');
  }
  const timeout = params.optional('TimeoutInMinutes');
  const stack = newStack({
    stackName,
    ...scope,
    status: 'CREATE_IN_PROGRESS',
    disableRollback: onFailure === 'DO_NOTHING',
    terminationProtection: params.flag('EnableTerminationProtection') ?? false,
    ...(timeout !== undefined ? { timeoutInMinutes: Number(timeout) } : {}),
  });
  const proposal = await buildProposal(engine.deps, stack, await requestInput(call, undefined));
  Object.assign(stack, structuredClone(proposal.generation));
  await engine.deps.store.add(stack);
  engine.start(stack, (op) => runCreate(op, proposal.evaluation, onFailure));
  return [el('StackId', stack.stackId)];
};

export const updateStack: CfnHandler = async (call) => {
  const { params, engine } = call;
  const stack = requireStack(call);
  if (inReview(stack)) throw cfnErrors.stackNotFound(stack.stackName);
  if (!canUpdate(stack)) throw cfnErrors.wrongStatus(stack.stackId, stack.status, 'be updated');
  const proposal = await buildProposal(engine.deps, stack, await requestInput(call, stack));
  const changes = resourceChanges(stack, proposal, engine.deps.provisioner);
  if (changesNothing(stack, proposal, changes)) throw cfnErrors.noUpdates();
  const disableRollback = params.flag('DisableRollback') ?? false;
  engine.start(stack, (op) => runUpdate(op, proposal, disableRollback));
  return [el('StackId', stack.stackId)];
};

export const deleteStack: CfnHandler = async (call) => {
  const { params, scope, engine } = call;
  const stack = engine.deps.store.find(scope, params.required('StackName'));
  // Deleting a stack that does not exist (or no longer does) succeeds, as on AWS.
  if (!stack || stack.status === 'DELETE_COMPLETE' || stack.status === 'DELETE_IN_PROGRESS') return [];
  if (stack.terminationProtection) {
    throw cfnErrors.validation(
      `Stack [${stack.stackName}] cannot be deleted while TerminationProtection is enabled`,
    );
  }
  const retain = params.members('RetainResources');
  if (retain.length > 0 && stack.status !== 'DELETE_FAILED') {
    throw cfnErrors.validation(
      `Invalid operation on stack [${stack.stackId}]. RetainResources can only be specified when the stack is in the DELETE_FAILED state.`,
    );
  }
  if (!canDelete(stack)) throw cfnErrors.wrongStatus(stack.stackId, stack.status, 'be deleted');
  for (const output of stack.outputs) {
    if (output.exportName === undefined) continue;
    const importers = importersOf(engine.deps.store, scope, output.exportName, stack.stackId);
    if (importers.length > 0) {
      // CloudFormation refuses without changing the stack: an event says why.
      await engine.deps.events.stack(
        stack,
        `Export ${output.exportName} cannot be deleted as it is in use by ${importers.map((s) => s.stackName).join(', ')}`,
      );
      return [];
    }
  }
  engine.start(stack, (op) => runDelete(op, new Set(retain)));
  return [];
};

export const describeStacks: CfnHandler = async (call) => {
  const name = call.params.optional('StackName');
  const stacks = name
    ? [requireStack(call, name)]
    : call.engine.deps.store.inScope(call.scope).filter((stack) => stack.status !== 'DELETE_COMPLETE');
  return [el('Stacks', stacks.map(stackXml))];
};

export const listStacks: CfnHandler = async (call) => {
  const filter = call.params.members('StackStatusFilter');
  const stacks = call.engine.deps.store
    .inScope(call.scope)
    .filter((stack) => filter.length === 0 || filter.includes(stack.status));
  return [el('StackSummaries', stacks.map(stackSummaryXml))];
};

export const updateTerminationProtection: CfnHandler = async (call) => {
  const stack = requireStack(call);
  const enable = call.params.required('EnableTerminationProtection') === 'true';
  if (stack.parentId !== undefined) {
    throw cfnErrors.validation(
      'Termination protection cannot be updated for nested stacks; update it on the root stack instead.',
    );
  }
  stack.terminationProtection = enable;
  await call.engine.deps.store.save(stack);
  return [el('StackId', stack.stackId)];
};

export const cancelUpdateStack: CfnHandler = async (call) => {
  const stack = requireStack(call);
  if (stack.status !== 'UPDATE_IN_PROGRESS' || !call.engine.cancel(stack.stackId)) {
    throw cfnErrors.validation('CancelUpdateStack cannot be called from current stack status');
  }
  return [];
};

export const continueUpdateRollback: CfnHandler = async (call) => {
  const stack = requireStack(call);
  if (stack.status !== 'UPDATE_ROLLBACK_FAILED') {
    throw cfnErrors.wrongStatus(stack.stackId, stack.status, 'continue update rollback');
  }
  const skip = new Set(call.params.members('ResourcesToSkip'));
  stack.journal = skipResources(stack.journal ?? [], skip);
  call.engine.start(stack, async (op) => {
    await op.status('UPDATE_ROLLBACK_IN_PROGRESS', 'User Initiated');
    await rollbackUpdate(op);
  });
  return [];
};

export const rollbackStack: CfnHandler = async (call) => {
  const stack = requireStack(call);
  if (!canRollBack(stack)) {
    throw cfnErrors.wrongStatus(stack.stackId, stack.status, 'be rolled back');
  }
  call.engine.start(stack, async (op) => {
    if (stack.status === 'CREATE_FAILED') {
      await op.status('ROLLBACK_IN_PROGRESS', 'User Initiated');
      await rollBackCreate(op);
      return;
    }
    await op.status('UPDATE_ROLLBACK_IN_PROGRESS', 'User Initiated');
    await rollbackUpdate(op);
  });
  return [el('StackId', stack.stackId)];
};
