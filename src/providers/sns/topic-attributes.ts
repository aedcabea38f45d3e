import type { JsonObject } from '../provider.js';
import { attributeText } from '../property-values.js';

/**
 * AWS::SNS::Topic properties that are topic attributes of the same name, with the value
 * SetTopicAttributes sends when the template drops one (CloudFormation returns a removed
 * property to its default). FifoTopic is create-only and only sent at CreateTopic.
 */
const ATTRIBUTES: Readonly<Record<string, { reset: string; json?: boolean; fifoOnly?: boolean }>> = {
  DisplayName: { reset: '' },
  KmsMasterKeyId: { reset: '' },
  SignatureVersion: { reset: '1' },
  TracingConfig: { reset: 'PassThrough' },
  ArchivePolicy: { reset: '', json: true, fifoOnly: true },
  ContentBasedDeduplication: { reset: 'false', fifoOnly: true },
  FifoThroughputScope: { reset: 'Topic', fifoOnly: true },
};

export const TOPIC_PROPERTIES = [
  ...Object.keys(ATTRIBUTES),
  'FifoTopic',
  'TopicName',
  'Tags',
  'Subscription',
];

/** The CreateTopic attributes for the template's properties. */
export function topicAttributes(properties: JsonObject): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const name of Object.keys(ATTRIBUTES)) {
    const value = properties[name];
    if (value !== undefined && value !== null) attributes[name] = attributeText(value);
  }
  if (attributeText(properties.FifoTopic) === 'true') attributes.FifoTopic = 'true';
  return attributes;
}

/** SetTopicAttributes calls, one per changed attribute, from `before` to `after`. */
export function topicAttributeChanges(
  before: JsonObject,
  after: JsonObject,
  fifo: boolean,
): Array<[string, string]> {
  const previous = topicAttributes(before);
  const next = topicAttributes(after);
  const changes: Array<[string, string]> = [];
  for (const [name, row] of Object.entries(ATTRIBUTES)) {
    if (previous[name] === next[name]) continue;
    if (next[name] !== undefined) changes.push([name, next[name]]);
    else if (fifo || !row.fifoOnly) changes.push([name, row.reset]);
  }
  return changes;
}

/** The observed properties from GetTopicAttributes. */
export function topicPropertiesFromAttributes(attributes: Record<string, string>): JsonObject {
  const properties: JsonObject = {};
  for (const [name, row] of Object.entries(ATTRIBUTES)) {
    const value = attributes[name];
    if (value === undefined || value === '') continue;
    properties[name] = row.json
      ? JSON.parse(value)
      : name === 'ContentBasedDeduplication'
        ? value === 'true'
        : value;
  }
  // A standard topic is the absence of the FifoTopic attribute: `FifoTopic: false` in a template.
  properties.FifoTopic = attributes.FifoTopic === 'true';
  return properties;
}
