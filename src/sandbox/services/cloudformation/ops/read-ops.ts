import { sandboxSchemaFor } from '../../../resource-index.js';
import { el, optionalEl } from '../../../xml.js';
import type { Template } from '../../../../template/index.js';
import { exportsIn, importersOf } from '../engine/exports.js';
import { requiredCapabilities } from '../template/capabilities.js';
import { parseStackTemplate, requestedTemplate } from '../template/source.js';
import { cfnErrors } from '../wire/errors.js';
import { eventXml, members, resourceSummaryXml, resourceXml } from '../wire/render.js';
import { requireStack, type CfnCall, type CfnHandler } from './call.js';
import { findChangeSet } from './change-set-ops.js';

const PAGE = 100;

/** One page of `items` from the opaque NextToken (an offset), and the token of the next. */
function page<T>(call: CfnCall, items: readonly T[]): { items: T[]; next?: string } {
  const token = call.params.optional('NextToken');
  const start = token ? Number(Buffer.from(token, 'base64url').toString('utf8')) : 0;
  if (!Number.isInteger(start) || start < 0) throw cfnErrors.validation('Invalid NextToken');
  const end = start + PAGE;
  return {
    items: items.slice(start, end),
    ...(end < items.length ? { next: Buffer.from(String(end)).toString('base64url') } : {}),
  };
}

/** Newest first, as CloudFormation lists them. */
export const describeStackEvents: CfnHandler = async (call) => {
  const stack = requireStack(call);
  const events = [...call.engine.deps.store.eventsOf(stack.stackId)].reverse();
  const { items, next } = page(call, events);
  return [el('StackEvents', items.map(eventXml)), optionalEl('NextToken', next)];
};

export const describeStackResources: CfnHandler = async (call) => {
  const { params } = call;
  const physicalId = params.optional('PhysicalResourceId');
  const name = params.optional('StackName');
  if (name === undefined && physicalId === undefined) {
    throw cfnErrors.validation('Either StackName or PhysicalResourceId must be specified.');
  }
  const stack =
    name !== undefined
      ? requireStack(call, name)
      : call.engine.deps.store
          .inScope(call.scope)
          .find((candidate) =>
            Object.values(candidate.resources).some((resource) => resource.physicalId === physicalId),
          );
  if (!stack) throw cfnErrors.validation(`Stack for ${physicalId} does not exist`);
  const logicalId = params.optional('LogicalResourceId');
  const resources = Object.values(stack.resources).filter(
    (resource) =>
      (logicalId === undefined || resource.logicalId === logicalId) &&
      (physicalId === undefined || name !== undefined || resource.physicalId === physicalId),
  );
  return [
    el(
      'StackResources',
      resources.map((resource) => resourceXml(stack, resource, false)),
    ),
  ];
};

export const describeStackResource: CfnHandler = async (call) => {
  const stack = requireStack(call);
  const logicalId = call.params.required('LogicalResourceId');
  const resource = stack.resources[logicalId];
  if (!resource)
    throw cfnErrors.validation(`Resource ${logicalId} does not exist for stack ${stack.stackName}`);
  return [resourceXml(stack, resource, true)];
};

export const listStackResources: CfnHandler = async (call) => {
  const stack = requireStack(call);
  const { items, next } = page(call, Object.values(stack.resources));
  return [el('StackResourceSummaries', items.map(resourceSummaryXml)), optionalEl('NextToken', next)];
};

export const getTemplate: CfnHandler = async (call) => {
  const changeSetName = call.params.optional('ChangeSetName');
  const body = changeSetName
    ? findChangeSet(call, changeSetName).changeSet.proposed.templateBody
    : requireStack(call).templateBody;
  return [el('TemplateBody', body), members('StagesAvailable', ['Original', 'Processed'])];
};

/** The template a summary or validation is about: given, or a stack's. */
async function summarizedTemplate(call: CfnCall): Promise<Template> {
  const given = await requestedTemplate(call.engine.deps.context, call.params);
  const name = call.params.optional('StackName');
  if (given === undefined && name === undefined) {
    throw cfnErrors.validation('Either Template URL or Template Body must be specified.');
  }
  return parseStackTemplate(given ?? requireStack(call, name).templateBody);
}

function parameterDeclarations(template: Template, withType: boolean): string {
  return el(
    'Parameters',
    [...template.parameters].map(([key, definition]) =>
      el('member', [
        el('ParameterKey', key),
        optionalEl('DefaultValue', definition.default === undefined ? undefined : String(definition.default)),
        withType ? el('ParameterType', definition.type) : undefined,
        el('NoEcho', definition.noEcho),
        optionalEl('Description', definition.description),
        withType && definition.allowedValues
          ? el('ParameterConstraints', [members('AllowedValues', definition.allowedValues.map(String))])
          : undefined,
      ]),
    ),
  );
}

function capabilityFields(template: Template): string[] {
  const capabilities = requiredCapabilities(template);
  return [
    members('Capabilities', capabilities),
    optionalEl(
      'CapabilitiesReason',
      capabilities.length > 0 ? 'The following resource(s) require capabilities: [AWS::IAM::*]' : undefined,
    ),
  ].filter((field): field is string => field !== undefined);
}

export const getTemplateSummary: CfnHandler = async (call) => {
  const template = await summarizedTemplate(call);
  const byType = new Map<string, string[]>();
  for (const resource of template.resources.values()) {
    if (!sandboxSchemaFor(resource.type)?.id) continue;
    byType.set(resource.type, [...(byType.get(resource.type) ?? []), resource.logicalId]);
  }
  return [
    parameterDeclarations(template, true),
    optionalEl('Description', template.description),
    ...capabilityFields(template),
    members('ResourceTypes', [...new Set([...template.resources.values()].map((resource) => resource.type))]),
    optionalEl('Version', template.formatVersion),
    optionalEl('Metadata', template.metadata === undefined ? undefined : JSON.stringify(template.metadata)),
    members('DeclaredTransforms', [...template.transforms]),
    el(
      'ResourceIdentifierSummaries',
      [...byType].map(([type, logicalIds]) =>
        el('member', [
          el('ResourceType', type),
          members('LogicalResourceIds', logicalIds),
          members('ResourceIdentifiers', sandboxSchemaFor(type)?.id ?? []),
        ]),
      ),
    ),
  ];
};

export const validateTemplate: CfnHandler = async (call) => {
  const template = await summarizedTemplate(call);
  return [
    parameterDeclarations(template, false),
    optionalEl('Description', template.description),
    ...capabilityFields(template),
    members('DeclaredTransforms', [...template.transforms]),
  ];
};

export const listExports: CfnHandler = async (call) => {
  const { items, next } = page(call, exportsIn(call.engine.deps.store, call.scope));
  return [
    el(
      'Exports',
      items.map((entry) =>
        el('member', [
          el('ExportingStackId', entry.stackId),
          el('Name', entry.name),
          el('Value', entry.value),
        ]),
      ),
    ),
    optionalEl('NextToken', next),
  ];
};

export const listImports: CfnHandler = async (call) => {
  const name = call.params.required('ExportName');
  const exported = exportsIn(call.engine.deps.store, call.scope).find((entry) => entry.name === name);
  const importers = exported ? importersOf(call.engine.deps.store, call.scope, name, exported.stackId) : [];
  if (importers.length === 0) throw cfnErrors.validation(`Export '${name}' is not imported by any stack.`);
  return [
    members(
      'Imports',
      importers.map((stack) => stack.stackName),
    ),
  ];
};
