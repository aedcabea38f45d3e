import type { Template } from '../../../../template/index.js';
import type { StackRecord, Tag } from '../model/types.js';
import { missingCapability } from '../template/capabilities.js';
import { parseStackTemplate } from '../template/source.js';
import { cfnErrors } from '../wire/errors.js';
import { asValidationError, prepareGeneration } from './evaluation.js';
import type { EngineDeps } from './operation.js';
import { stackResolver } from './resolver.js';
import type { Evaluation } from './resource-steps.js';
import type { NewGeneration } from './update.js';

/** What a request asks a stack to become, before it is checked. */
export interface ProposalInput {
  templateBody: string;
  /** Parameter values given (UsePreviousValue already read from the stack). */
  parameters: Record<string, string>;
  tags: Tag[];
  capabilities: string[];
  notificationArns: string[];
  roleArn?: string;
}

/** A checked proposal: the generation to write and the evaluation that applies it. */
export interface Proposal {
  generation: NewGeneration;
  template: Template;
  evaluation: Evaluation;
}

/**
 * Everything CloudFormation checks before it accepts an operation on `stack`: the template
 * parses and names known types, the capabilities it needs were acknowledged, parameters
 * resolve (SSM-typed ones included), Rules hold, Conditions evaluate and the resources form
 * a graph. Each failure is the ValidationError CloudFormation answers with.
 */
export async function buildProposal(
  deps: EngineDeps,
  stack: StackRecord,
  input: ProposalInput,
): Promise<Proposal> {
  const template = parseStackTemplate(input.templateBody);
  const missing = missingCapability(template, input.capabilities);
  if (missing !== undefined) throw cfnErrors.insufficientCapabilities([missing]);
  if (input.roleArn !== undefined) assertRole(deps, input.roleArn);
  const { prepared, parameters } = await prepareGeneration(deps.context, template, input.parameters, {
    stackName: stack.stackName,
    stackId: stack.stackId,
    region: stack.region,
    accountId: stack.accountId,
    notificationArns: input.notificationArns,
  });
  let graph;
  try {
    graph = prepared.dependencyGraph();
  } catch (error) {
    throw asValidationError(error);
  }
  const imports = new Set<string>();
  return {
    template,
    generation: {
      templateBody: input.templateBody,
      parameters,
      tags: input.tags,
      ...(template.description !== undefined ? { description: template.description } : {}),
      capabilities: input.capabilities,
      notificationArns: input.notificationArns,
      ...(input.roleArn !== undefined ? { roleArn: input.roleArn } : {}),
    },
    evaluation: {
      prepared,
      resolver: stackResolver(deps.store, stack, imports, deps.context.resources),
      imports,
      graph,
    },
  };
}

/** A service role CloudFormation cannot assume is refused before anything runs. */
function assertRole(deps: EngineDeps, roleArn: string): void {
  const match = /^arn:aws[\w-]*:iam::(\d{12}):role\/(?:.*\/)?([\w+=,.@-]+)$/.exec(roleArn);
  const role =
    match && deps.context.resources.resolve('AWS::IAM::Role')?.read(match[2]!, 'us-east-1', match[1]!);
  if (!role) throw cfnErrors.validation(`Role ${roleArn} is invalid or cannot be assumed`);
}

/** The values a stack's parameters were given, by key (what UsePreviousValue reads). */
export function previousValues(stack: StackRecord | undefined): Record<string, string> {
  return Object.fromEntries((stack?.parameters ?? []).map((parameter) => [parameter.key, parameter.value]));
}
