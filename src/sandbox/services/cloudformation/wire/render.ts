import { el, optionalEl } from '../../../xml.js';
import type {
  ChangeSetRecord,
  ResourceChange,
  StackEvent,
  StackParameter,
  StackRecord,
  StackResourceRecord,
  Tag,
} from '../model/types.js';

/** CloudFormation's query-protocol shapes, as its API writes them. */

export const members = (name: string, items: string[]): string =>
  el(
    name,
    items.map((item) => el('member', item)),
  );

export function tagsXml(tags: readonly Tag[]): string {
  return el(
    'Tags',
    tags.map((tag) => el('member', [el('Key', tag.Key), el('Value', tag.Value)])),
  );
}

/** NoEcho parameters show as asterisks, as CloudFormation shows them. */
export function parametersXml(parameters: readonly StackParameter[]): string {
  return el(
    'Parameters',
    parameters.map((parameter) =>
      el('member', [
        el('ParameterKey', parameter.key),
        el('ParameterValue', parameter.noEcho ? '****' : parameter.value),
        optionalEl('ResolvedValue', parameter.resolvedValue),
      ]),
    ),
  );
}

export function stackXml(stack: StackRecord): string {
  return el('member', [
    el('StackId', stack.stackId),
    el('StackName', stack.stackName),
    optionalEl('ChangeSetId', stack.changeSetId),
    optionalEl('Description', stack.description),
    parametersXml(stack.parameters),
    el('CreationTime', stack.creationTime),
    optionalEl('DeletionTime', stack.deletionTime),
    optionalEl('LastUpdatedTime', stack.lastUpdatedTime),
    el('RollbackConfiguration', []),
    el('StackStatus', stack.status),
    optionalEl('StackStatusReason', stack.statusReason),
    el('DisableRollback', stack.disableRollback),
    members('NotificationARNs', stack.notificationArns),
    optionalEl('TimeoutInMinutes', stack.timeoutInMinutes),
    members('Capabilities', stack.capabilities),
    el(
      'Outputs',
      stack.outputs.map((output) =>
        el('member', [
          el('OutputKey', output.key),
          el('OutputValue', output.value),
          optionalEl('Description', output.description),
          optionalEl('ExportName', output.exportName),
        ]),
      ),
    ),
    optionalEl('RoleARN', stack.roleArn),
    tagsXml(stack.tags),
    el('EnableTerminationProtection', stack.terminationProtection),
    optionalEl('ParentId', stack.parentId),
    optionalEl('RootId', stack.rootId),
    el('DriftInformation', [el('StackDriftStatus', 'NOT_CHECKED')]),
  ]);
}

export function stackSummaryXml(stack: StackRecord): string {
  return el('member', [
    el('StackId', stack.stackId),
    el('StackName', stack.stackName),
    optionalEl('TemplateDescription', stack.description),
    el('CreationTime', stack.creationTime),
    optionalEl('LastUpdatedTime', stack.lastUpdatedTime),
    optionalEl('DeletionTime', stack.deletionTime),
    el('StackStatus', stack.status),
    optionalEl('StackStatusReason', stack.statusReason),
    optionalEl('ParentId', stack.parentId),
    optionalEl('RootId', stack.rootId),
    el('DriftInformation', [el('StackDriftStatus', 'NOT_CHECKED')]),
  ]);
}

export function resourceSummaryXml(resource: StackResourceRecord): string {
  return el('member', [
    el('LogicalResourceId', resource.logicalId),
    optionalEl('PhysicalResourceId', resource.physicalId),
    el('ResourceType', resource.type),
    el('LastUpdatedTimestamp', resource.lastUpdated),
    el('ResourceStatus', resource.status),
    optionalEl('ResourceStatusReason', resource.statusReason),
    el('DriftInformation', [el('StackResourceDriftStatus', 'NOT_CHECKED')]),
  ]);
}

/** DescribeStackResources' member (`Timestamp`) and DescribeStackResource's detail (`LastUpdatedTimestamp`, Metadata). */
export function resourceXml(stack: StackRecord, resource: StackResourceRecord, detail: boolean): string {
  const fields = [
    el('StackName', stack.stackName),
    el('StackId', stack.stackId),
    el('LogicalResourceId', resource.logicalId),
    optionalEl('PhysicalResourceId', resource.physicalId),
    el('ResourceType', resource.type),
    el(detail ? 'LastUpdatedTimestamp' : 'Timestamp', resource.lastUpdated),
    el('ResourceStatus', resource.status),
    optionalEl('ResourceStatusReason', resource.statusReason),
    optionalEl('Description', resource.description),
    detail ? optionalEl('Metadata', resource.metadata) : undefined,
    el('DriftInformation', [el('StackResourceDriftStatus', 'NOT_CHECKED')]),
  ];
  return detail ? el('StackResourceDetail', fields) : el('member', fields);
}

export function eventXml(event: StackEvent): string {
  return el('member', [
    el('StackId', event.stackId),
    el('EventId', event.eventId),
    el('StackName', event.stackName),
    el('LogicalResourceId', event.logicalId),
    el('PhysicalResourceId', event.physicalId),
    el('ResourceType', event.type),
    el('Timestamp', event.timestamp),
    el('ResourceStatus', event.status),
    optionalEl('ResourceStatusReason', event.reason),
    optionalEl('ResourceProperties', event.properties),
    optionalEl('ClientRequestToken', event.clientRequestToken),
  ]);
}

function changeXml(change: ResourceChange): string {
  const details = [
    ...change.replacingProperties.map((name) => [name, 'Always'] as const),
    ...change.changedProperties
      .filter((name) => !change.replacingProperties.includes(name))
      .map((name) => [name, 'Never'] as const),
  ];
  return el('member', [
    el('Type', 'Resource'),
    el('ResourceChange', [
      el('Action', change.action),
      el('LogicalResourceId', change.logicalId),
      optionalEl('PhysicalResourceId', change.physicalId),
      el('ResourceType', change.type),
      optionalEl('Replacement', change.replacement),
      members('Scope', change.scope),
      el(
        'Details',
        details.map(([name, recreation]) =>
          el('member', [
            el('Target', [
              el('Attribute', 'Properties'),
              el('Name', name),
              el('RequiresRecreation', recreation),
            ]),
            el('Evaluation', 'Static'),
            el('ChangeSource', 'DirectModification'),
          ]),
        ),
      ),
    ]),
  ]);
}

export function changeSetXml(stack: StackRecord, changeSet: ChangeSetRecord): Array<string | undefined> {
  return [
    el('ChangeSetName', changeSet.changeSetName),
    el('ChangeSetId', changeSet.changeSetId),
    el('StackId', stack.stackId),
    el('StackName', stack.stackName),
    optionalEl('Description', changeSet.description),
    parametersXml(changeSet.proposed.parameters),
    el('CreationTime', changeSet.creationTime),
    el('ExecutionStatus', changeSet.executionStatus),
    el('Status', changeSet.status),
    optionalEl('StatusReason', changeSet.statusReason),
    members('NotificationARNs', changeSet.proposed.notificationArns),
    el('RollbackConfiguration', []),
    members('Capabilities', changeSet.proposed.capabilities),
    tagsXml(changeSet.proposed.tags),
    el('Changes', changeSet.changes.map(changeXml)),
    el('IncludeNestedStacks', changeSet.includeNestedStacks),
  ];
}

export function changeSetSummaryXml(stack: StackRecord, changeSet: ChangeSetRecord): string {
  return el('member', [
    el('StackId', stack.stackId),
    el('StackName', stack.stackName),
    el('ChangeSetId', changeSet.changeSetId),
    el('ChangeSetName', changeSet.changeSetName),
    el('ExecutionStatus', changeSet.executionStatus),
    el('Status', changeSet.status),
    optionalEl('StatusReason', changeSet.statusReason),
    el('CreationTime', changeSet.creationTime),
    optionalEl('Description', changeSet.description),
    el('IncludeNestedStacks', changeSet.includeNestedStacks),
  ]);
}
