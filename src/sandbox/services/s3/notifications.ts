import { serviceCaller } from '../../ports/delivery.js';
import { eventBus, lambdaInvoker, snsPublisher, sqsSender } from '../../ports/index.js';
import { child, children, parseXml, text, type XmlValue } from '../../xml.js';
import type { S3Call } from './call.js';
import type { ObjectVersion } from './model.js';
import type { BucketState } from './store.js';

/** What happened to an object, as S3 names it in an event (`s3:` + this is the configured event). */
export type ObjectEventName =
  'ObjectCreated:Put' | 'ObjectCreated:Copy' | 'ObjectRemoved:Delete' | 'ObjectRemoved:DeleteMarkerCreated';

interface Destination {
  kind: 'queue' | 'topic' | 'function';
  arn: string;
  id: string;
  events: string[];
  prefix: string;
  suffix: string;
}

const DESTINATIONS: Array<[Destination['kind'], string, string]> = [
  ['queue', 'QueueConfiguration', 'Queue'],
  ['topic', 'TopicConfiguration', 'Topic'],
  ['function', 'CloudFunctionConfiguration', 'CloudFunction'],
];

/**
 * Sends S3's event record to each destination of the bucket's notification configuration
 * (PutBucketNotificationConfiguration) whose events and key filter match: a queue gets it as
 * a message, a topic publishes it, a function is invoked with it (Event). A destination that
 * is gone, or a service the sandbox does not serve, drops it, as S3's delivery does.
 */
export async function notifyObjectEvent(
  call: S3Call,
  state: BucketState,
  eventName: ObjectEventName,
  version: Pick<ObjectVersion, 'key' | 'versionId' | 'etag' | 'size' | 'seq'>,
): Promise<void> {
  const document = state.record.documents?.notification;
  if (!document) return;
  if (child(parseXml(document)['NotificationConfiguration'], 'EventBridgeConfiguration') !== undefined) {
    await toEventBridge(call, state, eventName, version);
  }
  const caller = serviceCaller('s3', `arn:aws:s3:::${state.record.name}`, call.request.accountId);
  for (const destination of destinations(document)) {
    if (!matches(destination, eventName, version.key)) continue;
    const body = JSON.stringify({ Records: [eventRecord(call, state, eventName, version, destination.id)] });
    if (destination.kind === 'queue')
      await sqsSender.of(call.context)?.send(destination.arn, body, { caller });
    else if (destination.kind === 'topic')
      await snsPublisher.of(call.context)?.publish(destination.arn, body, 'Amazon S3 Notification', caller);
    else await lambdaInvoker.of(call.context)?.invokeAsync(destination.arn, body, caller);
  }
}

function destinations(document: string): Destination[] {
  const root = parseXml(document)['NotificationConfiguration'];
  return DESTINATIONS.flatMap(([kind, element, target]) =>
    children(root, element).map((configuration) => ({
      kind,
      arn: text(configuration, target) ?? '',
      id: text(configuration, 'Id') ?? '',
      events: children(configuration, 'Event').map(String),
      ...keyFilter(configuration),
    })),
  );
}

function keyFilter(configuration: XmlValue): { prefix: string; suffix: string } {
  const rules = children(child(child(configuration, 'Filter'), 'S3Key'), 'FilterRule');
  const value = (name: string) =>
    text(
      rules.find((rule) => text(rule, 'Name')?.toLowerCase() === name),
      'Value',
    ) ?? '';
  return { prefix: value('prefix'), suffix: value('suffix') };
}

/** `s3:ObjectCreated:*` covers every ObjectCreated event; otherwise the names are equal. */
function matches(destination: Destination, eventName: ObjectEventName, key: string): boolean {
  const configured = (event: string) =>
    event === `s3:${eventName}` || (event.endsWith(':*') && `s3:${eventName}`.startsWith(event.slice(0, -1)));
  return (
    destination.events.some(configured) &&
    key.startsWith(destination.prefix) &&
    key.endsWith(destination.suffix)
  );
}

/** S3's event record (version 2.1); the key is URL-encoded, spaces as `+`, as S3 sends it. */
function eventRecord(
  call: S3Call,
  state: BucketState,
  eventName: ObjectEventName,
  version: Pick<ObjectVersion, 'key' | 'versionId' | 'etag' | 'size' | 'seq'>,
  configurationId: string,
): unknown {
  const removed = eventName.startsWith('ObjectRemoved');
  return {
    eventVersion: '2.1',
    eventSource: 'aws:s3',
    awsRegion: state.record.region,
    eventTime: call.context.clock.iso(),
    eventName,
    userIdentity: { principalId: `AWS:${call.request.accountId}` },
    requestParameters: { sourceIPAddress: '127.0.0.1' },
    responseElements: { 'x-amz-request-id': call.request.requestId, 'x-amz-id-2': '' },
    s3: {
      s3SchemaVersion: '1.0',
      configurationId,
      bucket: {
        name: state.record.name,
        ownerIdentity: { principalId: call.request.accountId },
        arn: `arn:aws:s3:::${state.record.name}`,
      },
      object: {
        key: encodeURIComponent(version.key).replace(/%20/g, '+').replace(/%2F/g, '/'),
        ...(removed ? {} : { size: version.size, eTag: version.etag.replace(/"/g, '') }),
        ...(version.versionId !== 'null' ? { versionId: version.versionId } : {}),
        sequencer: version.seq.toString(16).toUpperCase().padStart(16, '0'),
      },
    },
  };
}

const REASONS: Record<ObjectEventName, string> = {
  'ObjectCreated:Put': 'PutObject',
  'ObjectCreated:Copy': 'CopyObject',
  'ObjectRemoved:Delete': 'DeleteObject',
  'ObjectRemoved:DeleteMarkerCreated': 'DeleteObject',
};

/**
 * With EventBridge notifications on, S3 puts "Object Created" / "Object Deleted" on the
 * default bus of the bucket's region, for every object event (rules filter them).
 */
async function toEventBridge(
  call: S3Call,
  state: BucketState,
  eventName: ObjectEventName,
  version: Pick<ObjectVersion, 'key' | 'versionId' | 'etag' | 'size' | 'seq'>,
): Promise<void> {
  const bus = eventBus.of(call.context);
  if (!bus) return;
  const removed = eventName.startsWith('ObjectRemoved');
  const { region, name } = state.record;
  const detail = {
    version: '0',
    bucket: { name },
    object: {
      key: version.key,
      ...(removed ? {} : { size: version.size, etag: version.etag.replace(/"/g, '') }),
      ...(version.versionId !== 'null' ? { 'version-id': version.versionId } : {}),
      sequencer: version.seq.toString(16).toUpperCase().padStart(16, '0'),
    },
    'request-id': call.request.requestId,
    requester: call.request.accountId,
    'source-ip-address': '127.0.0.1',
    reason: REASONS[eventName],
    ...(removed
      ? {
          'deletion-type':
            eventName === 'ObjectRemoved:DeleteMarkerCreated'
              ? 'Delete Marker Created'
              : 'Permanently Deleted',
        }
      : {}),
  };
  await bus.put(`arn:aws:events:${region}:${call.request.accountId}:event-bus/default`, [
    {
      Source: 'aws.s3',
      DetailType: removed ? 'Object Deleted' : 'Object Created',
      Detail: JSON.stringify(detail),
      Resources: [`arn:aws:s3:::${name}`],
    },
  ]);
}
