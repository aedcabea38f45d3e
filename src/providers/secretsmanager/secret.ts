import {
  CreateSecretCommand,
  DeleteSecretCommand,
  DescribeSecretCommand,
  GetRandomPasswordCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateSecretCommand,
  type DescribeSecretCommandOutput,
} from '@aws-sdk/client-secrets-manager';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';
import { awsErrorCode } from '../../aws/error-class.js';
import { CdkdError } from '../../errors.js';

import { givenOrTokenName, nameFromToken } from '../physical-names.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
  LocateAnswer,
} from '../provider.js';
import { MadeByAttempts, type MadeResource } from '../resource-made.js';
import { passwordRequest, secretStringFor } from './generate.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { textTags } from '../tags.js';

export const SECRET = 'AWS::SecretsManager::Secret';

const COVERED = new Set(['Name', 'Description', 'KmsKeyId', 'SecretString', 'GenerateSecretString', 'Tags']);

export const SECRET_NAME_RULES = { maxLength: 512, extraCharacters: '-/_+=.@' };

/** DescribeSecret answers neither the value nor how it was generated. */
const WRITE_ONLY: readonly string[] = ['SecretString', 'GenerateSecretString'];

/**
 * AWS::SecretsManager::Secret. Physical id and Ref: the ARN; GetAtt Id is the ARN too.
 * No secret value ever goes into attributes, observed properties or the creation identity.
 * Delete is immediate (ForceDeleteWithoutRecovery), which is what CloudFormation does.
 * A create whose read-back fails after CreateSecret reports the secret made
 * (ResourceMadeError, without creation identity: that read is what gives it).
 */
export class SecretProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: SECRET, covered: COVERED, writeOnly: WRITE_ONLY };
  /** Per idempotency token, the secret an attempt made before its read-back failed. */
  private readonly made = new MadeByAttempts();

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await secretsClient(context);
    const token = request.idempotencyToken;
    // The retry of a create whose read-back failed takes back the secret it made.
    const made = this.made.get(token) ?? (await this.createSecret(client, request, context));
    const arn = made.physicalId;
    let described: DescribeSecretCommandOutput;
    try {
      described = await client.send(new DescribeSecretCommand({ SecretId: arn }));
    } catch (error) {
      throw this.made.failed(token, made, error);
    }
    this.made.forget(token);
    return {
      physicalId: arn,
      attributes: { Id: arn },
      creationIdentity: { Arn: arn, createdDate: described.CreatedDate!.getTime() },
      observed: observedOf(described),
    };
  }

  private async createSecret(
    client: SecretsManagerClient,
    request: ResourceRequest,
    context: ProviderContext,
  ): Promise<MadeResource> {
    const props = request.properties;
    const secretString = await this.secretString(client, props, context);
    const name = secretName(request, context);
    const tags = textTags(props.Tags);
    try {
      const created = await client.send(
        new CreateSecretCommand({
          Name: name,
          ...(props.Description !== undefined ? { Description: String(props.Description) } : {}),
          ...(props.KmsKeyId !== undefined ? { KmsKeyId: String(props.KmsKeyId) } : {}),
          ...(secretString !== undefined ? { SecretString: secretString } : {}),
          ...(tags.length > 0 ? { Tags: tags } : {}),
          ...(request.idempotencyToken !== undefined ? { ClientRequestToken: request.idempotencyToken } : {}),
        }),
        { abortSignal: context.signal },
      );
      return { physicalId: created.ARN! };
    } catch (error) {
      // A name generated from the token is this create's alone: an earlier attempt made the secret.
      if (!(generatedFromToken(request) && awsErrorCode(error) === 'ResourceExistsException')) throw error;
      const earlier = await client.send(new DescribeSecretCommand({ SecretId: name }), {
        abortSignal: context.signal,
      });
      return { physicalId: earlier.ARN! };
    }
  }

  /**
   * The secret a create with this token made, by the name it asked for. A generated name
   * derives from the token; an explicit one is proven by the version the create's
   * ClientRequestToken (the token) made, which exists only when it sent a value.
   */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const token = request.idempotencyToken;
    if (!token) return 'unknown';
    const name = secretName(request, context);
    const client = await secretsClient(context);
    let described: DescribeSecretCommandOutput;
    try {
      described = await client.send(new DescribeSecretCommand({ SecretId: name }));
    } catch (error) {
      if (awsErrorCode(error) === 'ResourceNotFoundException') return 'none';
      throw error;
    }
    // As in `read`, a secret scheduled for deletion is gone. Only this answer gives the ARN's random suffix.
    if (described.Name !== name || described.DeletedDate !== undefined) return 'none';
    const proven = generatedFromToken(request) || token in (described.VersionIdsToStages ?? {});
    return proven && described.ARN ? { physicalId: described.ARN } : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const { physicalId: SecretId, properties: after, previousProperties: before } = request;
    const client = await secretsClient(context);
    const signal = { abortSignal: context.signal };
    const changed = (name: string) => JSON.stringify(before[name]) !== JSON.stringify(after[name]);
    if (changed('Description') || changed('KmsKeyId')) {
      await client.send(
        new UpdateSecretCommand({
          SecretId,
          Description: String(after.Description ?? ''),
          ...(after.KmsKeyId !== undefined ? { KmsKeyId: String(after.KmsKeyId) } : {}),
        }),
        signal,
      );
    }
    // A changed SecretString is put; a changed GenerateSecretString generates a new value.
    if (changed('SecretString') || changed('GenerateSecretString')) {
      const secretString = await this.secretString(client, after, context);
      if (secretString !== undefined) {
        await client.send(new PutSecretValueCommand({ SecretId, SecretString: secretString }), signal);
      }
    }
    if (changed('Tags')) {
      const old = new Map(textTags(before.Tags).map((t) => [t.Key, t.Value]));
      const next = new Map(textTags(after.Tags).map((t) => [t.Key, t.Value]));
      const removed = [...old.keys()].filter((key) => !next.has(key));
      const set = [...next].filter(([key, value]) => old.get(key) !== value);
      if (removed.length > 0)
        await client.send(new UntagResourceCommand({ SecretId, TagKeys: removed }), signal);
      if (set.length > 0) {
        await client.send(
          new TagResourceCommand({ SecretId, Tags: set.map(([Key, Value]) => ({ Key, Value })) }),
          signal,
        );
      }
    }
    // UpdateSecret and PutSecretValue answer only the ARN, name and version: nothing to observe.
    return { physicalId: SecretId, attributes: { Id: SecretId } };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await secretsClient(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(
          new DeleteSecretCommand({ SecretId: request.physicalId, ForceDeleteWithoutRecovery: true }),
          {
            abortSignal: context.signal,
          },
        ),
      errorCodeIn('ResourceNotFoundException'),
    );
  }

  /** Observed properties carry no secret value; a secret scheduled for deletion counts as gone. */
  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await secretsClient(context);
    let described: DescribeSecretCommandOutput;
    try {
      described = await client.send(new DescribeSecretCommand({ SecretId: request.physicalId }));
    } catch (error) {
      if (awsErrorCode(error) === 'ResourceNotFoundException') return undefined;
      throw error;
    }
    if (described.DeletedDate !== undefined) return undefined;
    return {
      properties: observedOf(described),
      attributes: { Id: described.ARN },
      creationIdentity: { Arn: described.ARN!, createdDate: described.CreatedDate!.getTime() },
    };
  }

  /** SecretString as given, or one generated from GenerateSecretString; undefined when neither is set. */
  private async secretString(
    client: SecretsManagerClient,
    props: JsonObject,
    context: ProviderContext,
  ): Promise<string | undefined> {
    if (props.SecretString !== undefined && props.GenerateSecretString !== undefined) {
      throw new CdkdError(
        'SECRET_VALUE_CONFLICT',
        'A secret cannot have both SecretString and GenerateSecretString.',
        {
          hint: 'Keep one of the two properties.',
        },
      );
    }
    if (props.SecretString !== undefined) return String(props.SecretString);
    if (props.GenerateSecretString === undefined) return undefined;
    const spec = props.GenerateSecretString as JsonObject;
    const generated = await client.send(new GetRandomPasswordCommand(passwordRequest(spec)), {
      abortSignal: context.signal,
    });
    return secretStringFor(spec, generated.RandomPassword!);
  }
}

function secretName(request: ResourceRequest, context: ProviderContext): string {
  return givenOrTokenName(request.properties.Name, context.stackName, request, SECRET_NAME_RULES);
}

function generatedFromToken(request: ResourceRequest): boolean {
  return nameFromToken(request.properties.Name, request);
}

function secretsClient(context: ProviderContext): Promise<SecretsManagerClient> {
  return context.clients.client(SecretsManagerClient, context.region);
}

/** The secret as the create's own DescribeSecret (which its identity needs) shows it: never its value. */
function observedOf(described: DescribeSecretCommandOutput): JsonObject {
  return {
    Name: described.Name,
    ...(described.Description !== undefined ? { Description: described.Description } : {}),
    ...(described.KmsKeyId !== undefined ? { KmsKeyId: described.KmsKeyId } : {}),
    ...(described.Tags && described.Tags.length > 0
      ? { Tags: described.Tags.map((t) => ({ Key: t.Key, Value: t.Value })) }
      : {}),
  };
}
