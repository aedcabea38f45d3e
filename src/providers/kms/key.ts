import {
  CreateKeyCommand,
  DescribeKeyCommand,
  DisableKeyCommand,
  DisableKeyRotationCommand,
  EnableKeyCommand,
  EnableKeyRotationCommand,
  GetKeyPolicyCommand,
  GetKeyRotationStatusCommand,
  KMSClient,
  ListKeysCommand,
  ListResourceTagsCommand,
  PutKeyPolicyCommand,
  ScheduleKeyDeletionCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateKeyDescriptionCommand,
  type KeyMetadata,
  type KeySpec,
  type KeyUsageType,
} from '@aws-sdk/client-kms';
import { awsErrorCode } from '../../aws/error-class.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  LocateAnswer,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { MadeByAttempts, type MadeResource } from '../resource-made.js';
import { SINGLE_ATTEMPT, type ClientTuning } from '../../aws/client-factory.js';
import { TOKEN_TAG } from '../physical-names.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

export const KEY = 'AWS::KMS::Key';

const COVERED = new Set([
  'KeyPolicy',
  'EnableKeyRotation',
  'Enabled',
  'Description',
  'KeySpec',
  'KeyUsage',
  'MultiRegion',
  'PendingWindowInDays',
  'Tags',
]);
/** No KMS call changes these after CreateKey, though the schema marks none create-only. */
const CREATE_ONLY = new Set(['KeySpec', 'KeyUsage', 'MultiRegion', 'Origin']);

const isTrue = (value: unknown): boolean => String(value) === 'true';

/** Only a key's deletion uses it; DescribeKey never answers it. */
const WRITE_ONLY: readonly string[] = ['PendingWindowInDays'];

/**
 * AWS::KMS::Key. Physical id and Ref: the key id. Delete schedules deletion, as CloudFormation
 * does. A create whose rotation or disable call fails after CreateKey reports the key made
 * (ResourceMadeError, with its creation identity); the retry of that create takes it back.
 */
export class KeyProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: KEY,
    covered: COVERED,
    replaces: CREATE_ONLY,
    writeOnly: WRITE_ONLY,
  };
  /** Per idempotency token, the key an attempt made before its rotation or disable call failed. */
  private readonly made = new MadeByAttempts();

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const props = request.properties;
    const client = await kmsClient(context);
    const token = request.idempotencyToken;
    // CreateKey takes no name, so only this memory keeps a retry from making a second key.
    const earlier = this.made.get(token);
    const key = earlier ? undefined : await this.createKey(props, token, context);
    const made = earlier ?? madeKey(key!);
    const KeyId = made.physicalId;
    try {
      if (isTrue(props.EnableKeyRotation)) await client.send(new EnableKeyRotationCommand({ KeyId }));
      if (props.Enabled !== undefined && !isTrue(props.Enabled)) {
        await client.send(new DisableKeyCommand({ KeyId }));
      }
    } catch (error) {
      throw this.made.failed(token, made, error);
    }
    this.made.forget(token);
    return {
      physicalId: KeyId,
      attributes: { Arn: made.creationIdentity!.Arn, KeyId },
      creationIdentity: made.creationIdentity!,
      // A retry that found its key made observes nothing: the attempt that made it read the answer.
      // Enabled is left out: a DisableKey after CreateKey answers nothing.
      ...(key ? { observed: observedOf(key, { enabled: false }) } : {}),
    };
  }

  /** CreateKey, tagged with the create's token: a key has no name, so the tag is `locate`'s proof. */
  private async createKey(
    props: JsonObject,
    token: string | undefined,
    context: ProviderContext,
  ): Promise<KeyMetadata> {
    const tagged = [
      ...tags(props.Tags).map(({ Key, Value }) => ({ TagKey: Key, TagValue: Value })),
      ...(token !== undefined ? [{ TagKey: TOKEN_TAG, TagValue: token }] : []),
    ];
    const created = await (
      await kmsClient(context, SINGLE_ATTEMPT)
    ).send(
      new CreateKeyCommand({
        ...(props.KeyPolicy !== undefined ? { Policy: policyText(props.KeyPolicy) } : {}),
        ...(props.Description !== undefined ? { Description: String(props.Description) } : {}),
        ...(props.KeyUsage !== undefined ? { KeyUsage: String(props.KeyUsage) as KeyUsageType } : {}),
        ...(props.KeySpec !== undefined ? { KeySpec: String(props.KeySpec) as KeySpec } : {}),
        ...(props.MultiRegion !== undefined ? { MultiRegion: isTrue(props.MultiRegion) } : {}),
        Tags: tagged,
      }),
      { abortSignal: context.signal },
    );
    return created.KeyMetadata!;
  }

  /**
   * The key a create with this token made: the one carrying its token tag, which CreateKey
   * wrote in the same call. Keys have no name to look up, so every key of the region is read
   * (only after a lost answer or a killed deploy). A key whose tags cdkd may not read leaves
   * the answer open.
   */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const token = request.idempotencyToken;
    if (token === undefined) return 'unknown';
    const client = await kmsClient(context);
    const signal = { abortSignal: context.signal };
    let unreadable = false;
    let Marker: string | undefined;
    do {
      const page = await client.send(
        new ListKeysCommand({ ...(Marker !== undefined && { Marker }) }),
        signal,
      );
      for (const { KeyId } of page.Keys ?? []) {
        try {
          const { Tags } = await client.send(new ListResourceTagsCommand({ KeyId }), signal);
          if (Tags?.some((tag) => tag.TagKey === TOKEN_TAG && tag.TagValue === token)) {
            return { physicalId: KeyId! };
          }
        } catch (error) {
          if (awsErrorCode(error) !== 'NotFoundException') unreadable = true;
        }
      }
      Marker = page.Truncated ? page.NextMarker : undefined;
    } while (Marker !== undefined);
    return unreadable ? 'unknown' : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const { physicalId: KeyId, properties: after, previousProperties: before } = request;
    const client = await kmsClient(context);
    const signal = { abortSignal: context.signal };
    const changed = (name: string) => JSON.stringify(before[name]) !== JSON.stringify(after[name]);
    // Enable before the other changes and disable after them, so they all meet an enabled key.
    if (changed('Enabled') && (after.Enabled === undefined || isTrue(after.Enabled))) {
      await client.send(new EnableKeyCommand({ KeyId }), signal);
    }
    if (changed('Description')) {
      await client.send(
        new UpdateKeyDescriptionCommand({ KeyId, Description: String(after.Description ?? '') }),
        signal,
      );
    }
    if (changed('KeyPolicy') && after.KeyPolicy !== undefined) {
      await client.send(
        new PutKeyPolicyCommand({ KeyId, PolicyName: 'default', Policy: policyText(after.KeyPolicy) }),
        signal,
      );
    }
    if (changed('EnableKeyRotation')) {
      await client.send(
        isTrue(after.EnableKeyRotation)
          ? new EnableKeyRotationCommand({ KeyId })
          : new DisableKeyRotationCommand({ KeyId }),
        signal,
      );
    }
    if (changed('Tags')) await this.retag(client, KeyId, before.Tags, after.Tags, context);
    if (changed('Enabled') && after.Enabled !== undefined && !isTrue(after.Enabled)) {
      await client.send(new DisableKeyCommand({ KeyId }), signal);
    }
    const key = (await client.send(new DescribeKeyCommand({ KeyId }), signal)).KeyMetadata!;
    return { physicalId: KeyId, attributes: attributes(key), observed: observedOf(key, { enabled: true }) };
  }

  /** ScheduleKeyDeletion with PendingWindowInDays (CloudFormation's default: 30); a key already pending is gone. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await kmsClient(context);
    const window = request.properties.PendingWindowInDays;
    try {
      await client.send(
        new ScheduleKeyDeletionCommand({
          KeyId: request.physicalId,
          PendingWindowInDays: window === undefined ? 30 : Number(window),
        }),
        { abortSignal: context.signal },
      );
    } catch (error) {
      const code = awsErrorCode(error);
      if (code === 'NotFoundException') return;
      if (code === 'KMSInvalidStateException' && (await pendingDeletion(client, request.physicalId))) return;
      throw error;
    }
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await kmsClient(context);
    const key = await describe(client, request.physicalId);
    if (!key || key.KeyState === 'PendingDeletion') return undefined;
    const KeyId = key.KeyId!;
    const [policy, rotation, tagList] = await Promise.all([
      client.send(new GetKeyPolicyCommand({ KeyId, PolicyName: 'default' })),
      client.send(new GetKeyRotationStatusCommand({ KeyId })),
      client.send(new ListResourceTagsCommand({ KeyId })),
    ]);
    return {
      properties: {
        ...observedOf(key, { enabled: true }),
        EnableKeyRotation: rotation.KeyRotationEnabled,
        KeyPolicy: JSON.parse(policy.Policy ?? '{}') as unknown,
        ...templateTags(tagList.Tags),
      },
      attributes: attributes(key),
      creationIdentity: { Arn: key.Arn!, creationDate: key.CreationDate!.getTime() },
    };
  }

  private async retag(
    client: KMSClient,
    KeyId: string,
    before: unknown,
    after: unknown,
    context: ProviderContext,
  ) {
    const old = new Map(tags(before).map((t) => [t.Key, t.Value]));
    const next = new Map(tags(after).map((t) => [t.Key, t.Value]));
    const removed = [...old.keys()].filter((key) => !next.has(key));
    const set = [...next].filter(([key, value]) => old.get(key) !== value);
    const signal = { abortSignal: context.signal };
    if (removed.length > 0) await client.send(new UntagResourceCommand({ KeyId, TagKeys: removed }), signal);
    if (set.length > 0) {
      await client.send(
        new TagResourceCommand({ KeyId, Tags: set.map(([TagKey, TagValue]) => ({ TagKey, TagValue })) }),
        signal,
      );
    }
  }
}

/** `SINGLE_ATTEMPT` for a create call that carries no idempotency token (spec 003, "Ambiguous creates"). */
export function kmsClient(context: ProviderContext, tuning: ClientTuning = {}): Promise<KMSClient> {
  return context.clients.client(KMSClient, context.region, tuning);
}

/** The key's tags as the template gives them: the token tag is cdkd's, not the template's. */
function templateTags(live: Array<{ TagKey?: string; TagValue?: string }> | undefined): JsonObject {
  const own = (live ?? []).filter((tag) => tag.TagKey !== TOKEN_TAG);
  return own.length > 0 ? { Tags: own.map((t) => ({ Key: t.TagKey, Value: t.TagValue })) } : {};
}

async function describe(client: KMSClient, KeyId: string): Promise<KeyMetadata | undefined> {
  try {
    return (await client.send(new DescribeKeyCommand({ KeyId }))).KeyMetadata;
  } catch (error) {
    if (awsErrorCode(error) === 'NotFoundException') return undefined;
    throw error;
  }
}

async function pendingDeletion(client: KMSClient, KeyId: string): Promise<boolean> {
  return (await describe(client, KeyId))?.KeyState === 'PendingDeletion';
}

function madeKey(key: KeyMetadata): MadeResource {
  return {
    physicalId: key.KeyId!,
    creationIdentity: { Arn: key.Arn!, creationDate: key.CreationDate!.getTime() },
  };
}

/** The key as CreateKey's or DescribeKey's KeyMetadata shows it (policy, rotation and tags are other calls). */
function observedOf(key: KeyMetadata, include: { enabled: boolean }): JsonObject {
  return {
    Description: key.Description,
    KeyUsage: key.KeyUsage,
    KeySpec: key.KeySpec,
    MultiRegion: key.MultiRegion,
    ...(include.enabled ? { Enabled: key.Enabled } : {}),
  };
}

/** GetAtt Arn and KeyId, from DescribeKey / CreateKey KeyMetadata. */
function attributes(key: KeyMetadata): JsonObject {
  return { Arn: key.Arn, KeyId: key.KeyId };
}

function tags(value: unknown): Array<{ Key: string; Value: string }> {
  return ((value as Array<{ Key: string; Value: unknown }> | undefined) ?? []).map((t) => ({
    Key: t.Key,
    Value: String(t.Value),
  }));
}

function policyText(policy: unknown): string {
  return typeof policy === 'string' ? policy : JSON.stringify(policy);
}
