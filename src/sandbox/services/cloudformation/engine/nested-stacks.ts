import { randomString } from '../../../ids.js';
import { SandboxError } from '../../../errors.js';
import { newStack } from '../model/new-stack.js';
import type { StackRecord, StackResourceRecord, Tag } from '../model/types.js';
import type { ResourceModel } from '../../../resources.js';
import { NESTED_STACK, readTemplateUrl } from '../template/source.js';
import { runCreate } from './create.js';
import { runDelete } from './delete.js';
import { StepFailure } from './failures.js';
import { StackOperation, type EngineDeps } from './operation.js';
import { buildProposal, type ProposalInput } from './proposal.js';
import type { NestedStackOps, Provisioned, ResourceRequest } from './provisioner.js';
import { applyUpdate, beginUpdate, finishUpdate } from './update.js';
import { rollbackUpdate } from './update-rollback.js';

/**
 * AWS::CloudFormation::Stack: a child stack from TemplateURL (on the sandbox's S3), run by
 * the same operations as any stack, with ParentId and RootId naming where it hangs. Its
 * outputs are the resource's `Outputs.<Name>` attributes.
 */
export class NestedStacks implements NestedStackOps {
  constructor(private readonly deps: () => EngineDeps) {}

  async create(request: ResourceRequest): Promise<Provisioned> {
    const parent = request.stack;
    const input = await this.input(parent, request.properties, parent.tags);
    const name = `${parent.stackName}-${request.logicalId}-${randomString(12, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`;
    const child = newStack({
      stackName: name.slice(0, 128),
      region: parent.region,
      accountId: parent.accountId,
      status: 'CREATE_IN_PROGRESS',
      parentId: parent.stackId,
      rootId: parent.rootId ?? parent.stackId,
    });
    const proposal = await this.propose(child, input);
    Object.assign(child, structuredClone(proposal.generation));
    await this.deps().store.add(child);
    const op = new StackOperation(this.deps(), child);
    await runCreate(op, proposal.evaluation, 'ROLLBACK');
    if (child.status !== 'CREATE_COMPLETE') {
      const reason = child.statusReason ?? '';
      await runDelete(op, new Set());
      throw new StepFailure(`Embedded stack ${child.stackId} was not successfully created: ${reason}`);
    }
    return outputsOf(child);
  }

  async update(request: ResourceRequest, record: StackResourceRecord): Promise<Provisioned> {
    const child = this.child(record);
    const input = await this.input(request.stack, request.properties, request.stack.tags);
    if (unchanged(child, input)) return outputsOf(child);
    const proposal = await this.propose(child, input);
    const op = new StackOperation(this.deps(), child);
    await beginUpdate(op, proposal.generation, 'UPDATE_IN_PROGRESS');
    const failure = await applyUpdate(op, proposal.evaluation);
    if (failure !== undefined) {
      await op.status('UPDATE_ROLLBACK_IN_PROGRESS', failure);
      await rollbackUpdate(op);
      throw new StepFailure(
        `Embedded stack ${child.stackId} was not successfully updated. Currently in ${child.status} with reason: ${failure}`,
      );
    }
    await op.status('UPDATE_COMPLETE_CLEANUP_IN_PROGRESS');
    return outputsOf(child);
  }

  async delete(_stack: StackRecord, record: StackResourceRecord): Promise<void> {
    const child = this.deps().store.byId(record.physicalId ?? '');
    if (!child || child.status === 'DELETE_COMPLETE') return;
    await runDelete(new StackOperation(this.deps(), child), new Set());
    if (!deleted(child)) {
      throw new StepFailure(
        `Embedded stack ${child.stackId} was not successfully deleted: ${child.statusReason ?? ''}`,
      );
    }
  }

  async finishUpdate(record: StackResourceRecord): Promise<void> {
    const child = this.child(record);
    if (child.previous) await finishUpdate(new StackOperation(this.deps(), child));
  }

  async rollbackUpdate(record: StackResourceRecord): Promise<void> {
    const child = this.child(record);
    if (!child.previous) return;
    const op = new StackOperation(this.deps(), child);
    await op.status('UPDATE_ROLLBACK_IN_PROGRESS', 'Rollback requested by the parent stack');
    await rollbackUpdate(op);
    if (child.status !== 'UPDATE_ROLLBACK_COMPLETE') {
      throw new StepFailure(
        `Embedded stack ${child.stackId} was not successfully rolled back: ${child.statusReason ?? ''}`,
      );
    }
  }

  read(parent: StackRecord, stackId: string): ResourceModel | undefined {
    const child = this.deps().store.byId(stackId);
    if (!child || child.status === 'DELETE_COMPLETE') return undefined;
    if (child.region !== parent.region || child.accountId !== parent.accountId) return undefined;
    return { StackId: child.stackId, ...outputsOf(child).attributes };
  }

  /**
   * AWS's rules for nesting an existing stack by IMPORT: one level only (the parent is not
   * nested, the stack is not nested and nests none), and the row's TemplateURL holds the
   * stack's own template.
   */
  async checkAdoption(
    parent: StackRecord,
    stackId: string,
    properties: Record<string, unknown>,
  ): Promise<void> {
    const child = this.deps().store.byId(stackId);
    if (!child) throw new StepFailure(`Stack ${stackId} does not exist`);
    if (parent.parentId !== undefined)
      throw new StepFailure(
        'Resource import supports one level of nesting: the stack importing is nested itself',
      );
    if (child.parentId !== undefined)
      throw new StepFailure(`Stack ${child.stackName} is already a nested stack of ${child.parentId}`);
    if (Object.values(child.resources).some((resource) => resource.type === NESTED_STACK))
      throw new StepFailure(
        `Resource import supports one level of nesting: ${child.stackName} has nested stacks`,
      );
    const input = await this.input(parent, properties, parent.tags);
    if (!sameTemplate(input.templateBody, child.templateBody)) {
      throw new StepFailure(
        `The template of nested stack ${child.stackName} does not match the template at its TemplateURL`,
      );
    }
  }

  async adopt(parent: StackRecord, stackId: string): Promise<void> {
    const child = this.deps().store.byId(stackId);
    if (!child) return;
    child.parentId = parent.stackId;
    child.rootId = parent.rootId ?? parent.stackId;
    await this.deps().store.save(child);
  }

  private child(record: StackResourceRecord): StackRecord {
    const child = this.deps().store.byId(record.physicalId ?? '');
    if (!child) throw new StepFailure(`Embedded stack ${record.physicalId} does not exist`);
    return child;
  }

  /** The child's template and parameters from the resource's properties; its tags add to the parent's. */
  private async input(
    parent: StackRecord,
    properties: Record<string, unknown>,
    inherited: Tag[],
  ): Promise<ProposalInput> {
    const url = properties.TemplateURL;
    if (typeof url !== 'string') throw new StepFailure('Template error: a nested stack needs a TemplateURL');
    let templateBody: string;
    try {
      templateBody = await readTemplateUrl(this.deps().context, url);
    } catch (error) {
      throw new StepFailure(error instanceof SandboxError ? error.message : String(error));
    }
    const given = (properties.Parameters ?? {}) as Record<string, unknown>;
    const parameters = Object.fromEntries(
      Object.entries(given).map(([key, value]) => [
        key,
        Array.isArray(value) ? value.join(',') : String(value),
      ]),
    );
    const own = Array.isArray(properties.Tags) ? (properties.Tags as Tag[]) : [];
    const notificationArns = Array.isArray(properties.NotificationARNs)
      ? (properties.NotificationARNs as string[])
      : parent.notificationArns;
    return {
      templateBody,
      parameters,
      tags: [...inherited.filter((tag) => !own.some((o) => o.Key === tag.Key)), ...own],
      capabilities: parent.capabilities,
      notificationArns,
      ...(parent.roleArn !== undefined ? { roleArn: parent.roleArn } : {}),
    };
  }

  private async propose(child: StackRecord, input: ProposalInput) {
    try {
      return await buildProposal(this.deps(), child, input);
    } catch (error) {
      if (error instanceof SandboxError) throw new StepFailure(error.message);
      throw error;
    }
  }
}

function sameTemplate(given: string, held: string | undefined): boolean {
  if (given === held) return true;
  try {
    return JSON.stringify(JSON.parse(given)) === JSON.stringify(JSON.parse(held ?? ''));
  } catch {
    return false;
  }
}

/** Read after the deletion ran (the compiler would keep the status it saw before). */
function deleted(stack: StackRecord): boolean {
  return stack.status === 'DELETE_COMPLETE';
}

function unchanged(child: StackRecord, input: ProposalInput): boolean {
  const given = Object.fromEntries(child.parameters.map((parameter) => [parameter.key, parameter.value]));
  return (
    child.templateBody === input.templateBody &&
    Object.entries(input.parameters).every(([key, value]) => given[key] === value) &&
    JSON.stringify(child.tags) === JSON.stringify(input.tags)
  );
}

function outputsOf(child: StackRecord): Provisioned {
  return {
    physicalId: child.stackId,
    attributes: Object.fromEntries(child.outputs.map((output) => [`Outputs.${output.key}`, output.value])),
  };
}
