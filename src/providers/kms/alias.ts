import {
  CreateAliasCommand,
  DeleteAliasCommand,
  ListAliasesCommand,
  UpdateAliasCommand,
  type AliasListEntry,
  type KMSClient,
} from '@aws-sdk/client-kms';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';

import type {
  CreateResult,
  DeleteRequest,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { kmsClient } from './key.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

export const ALIAS = 'AWS::KMS::Alias';

const COVERED = new Set(['AliasName', 'TargetKeyId']);

/** AWS::KMS::Alias. Physical id and Ref: the alias name; TargetKeyId moves with UpdateAlias. */
export class AliasProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: ALIAS, covered: COVERED };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const AliasName = String(request.properties.AliasName);
    const client = await kmsClient(context);
    await (
      await kmsClient(context, SINGLE_ATTEMPT)
    ).send(new CreateAliasCommand({ AliasName, TargetKeyId: String(request.properties.TargetKeyId) }), {
      abortSignal: context.signal,
    });
    const alias = await find(client, AliasName);
    return {
      physicalId: AliasName,
      attributes: {},
      creationIdentity: { AliasArn: alias!.AliasArn!, creationDate: alias!.CreationDate?.getTime() ?? 0 },
      // The listing that finds the alias's identity answers its target too.
      observed: { AliasName: alias!.AliasName, TargetKeyId: alias!.TargetKeyId },
    };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await kmsClient(context);
    await client.send(
      new UpdateAliasCommand({
        AliasName: request.physicalId,
        TargetKeyId: String(request.properties.TargetKeyId),
      }),
      { abortSignal: context.signal },
    );
    // UpdateAlias answers nothing to observe.
    return { physicalId: request.physicalId, attributes: {} };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await kmsClient(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(new DeleteAliasCommand({ AliasName: request.physicalId }), {
          abortSignal: context.signal,
        }),
      errorCodeIn('NotFoundException'),
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const alias = await find(await kmsClient(context), request.physicalId);
    if (!alias) return undefined;
    return {
      properties: { AliasName: alias.AliasName, TargetKeyId: alias.TargetKeyId },
      attributes: {},
      creationIdentity: { AliasArn: alias.AliasArn!, creationDate: alias.CreationDate?.getTime() ?? 0 },
    };
  }
}

async function find(client: KMSClient, aliasName: string): Promise<AliasListEntry | undefined> {
  let Marker: string | undefined;
  do {
    const page = await client.send(new ListAliasesCommand({ Marker }));
    const found = page.Aliases?.find((alias) => alias.AliasName === aliasName);
    if (found) return found;
    Marker = page.Truncated ? page.NextMarker : undefined;
  } while (Marker !== undefined);
  return undefined;
}
