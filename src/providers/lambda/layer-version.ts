import {
  DeleteLayerVersionCommand,
  GetLayerVersionCommand,
  ListLayerVersionsCommand,
  PublishLayerVersionCommand,
  type Architecture,
  type Runtime,
} from '@aws-sdk/client-lambda';
import { nameFromToken, tokenPhysicalName } from '../physical-names.js';
import type {
  CreateResult,
  DeleteRequest,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
  LocateAnswer,
} from '../provider.js';
import { asObject, isNotFound, lambdaClient, string, stringList } from './common.js';
import { attributesFor } from './ref-attributes.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

const TYPE = 'AWS::Lambda::LayerVersion';
const COVERED = new Set([
  'LayerName',
  'Content',
  'Description',
  'CompatibleRuntimes',
  'CompatibleArchitectures',
  'LicenseInfo',
]);
/** Layer names: up to 140 of `[a-zA-Z0-9-_]`. */
export const LAYER_NAME_RULES = { maxLength: 140, extraCharacters: '-_' };

/** GetLayerVersion answers a presigned location, never the Content sent. */
const WRITE_ONLY: readonly string[] = ['Content'];

/**
 * AWS::Lambda::LayerVersion through PublishLayerVersion; a layer version is immutable, so
 * every property is create-only. Physical id and Ref: the layer version ARN.
 */
export class LambdaLayerVersionProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: TYPE, covered: COVERED, writeOnly: WRITE_ONLY };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await lambdaClient(context, SINGLE_ATTEMPT);
    const p = request.properties;
    const content = asObject(p.Content) ?? {};
    const published = await client.send(
      new PublishLayerVersionCommand({
        LayerName: string(p.LayerName) ?? tokenPhysicalName(context.stackName, request, LAYER_NAME_RULES),
        Content: {
          S3Bucket: string(content.S3Bucket),
          S3Key: string(content.S3Key),
          S3ObjectVersion: string(content.S3ObjectVersion),
        },
        Description: string(p.Description),
        CompatibleRuntimes: stringList(p.CompatibleRuntimes) as Runtime[] | undefined,
        CompatibleArchitectures: stringList(p.CompatibleArchitectures) as Architecture[] | undefined,
        LicenseInfo: string(p.LicenseInfo),
      }),
      { abortSignal: context.signal },
    );
    return {
      physicalId: published.LayerVersionArn!,
      attributes: attributesFor(TYPE, published),
      creationIdentity: {
        LayerVersionArn: published.LayerVersionArn!,
        CreatedDate: published.CreatedDate ?? '',
      },
      observed: {
        // The version ARN is `arn:...:layer:{name}:{version}`.
        LayerName: published.LayerArn?.slice(published.LayerArn.lastIndexOf(':') + 1),
        Description: published.Description,
        CompatibleRuntimes: published.CompatibleRuntimes,
        CompatibleArchitectures: published.CompatibleArchitectures,
        LicenseInfo: published.LicenseInfo,
      },
    };
  }

  /**
   * The layer version a create with this token published: every version under a layer
   * name generated from the token is this create's; the newest is the one its last
   * attempt returned. An explicit layer name holds other creates' versions too.
   */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    if (!nameFromToken(request.properties.LayerName, request)) return 'unknown';
    const client = await lambdaClient(context);
    const LayerName = tokenPhysicalName(context.stackName, request, LAYER_NAME_RULES);
    let newest: { arn: string; version: number } | undefined;
    let Marker: string | undefined;
    try {
      do {
        const page = await client.send(new ListLayerVersionsCommand({ LayerName, Marker }));
        for (const layer of page.LayerVersions ?? []) {
          if (layer.LayerVersionArn && (newest === undefined || (layer.Version ?? 0) > newest.version)) {
            newest = { arn: layer.LayerVersionArn, version: layer.Version ?? 0 };
          }
        }
        Marker = page.NextMarker;
      } while (Marker);
    } catch (error) {
      if (isNotFound(error)) return 'none';
      throw error;
    }
    return newest ? { physicalId: newest.arn } : 'none';
  }

  /** Nothing is updatable in place; reached only for no-op changes. */
  async update(request: UpdateRequest): Promise<UpdateResult> {
    // No call is made (a layer version never changes): nothing to observe.
    return {
      physicalId: request.physicalId,
      attributes: attributesFor(TYPE, { LayerVersionArn: request.physicalId }),
    };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await lambdaClient(context);
    // Deleting a version that is gone succeeds on Lambda's side as well.
    await client.send(new DeleteLayerVersionCommand(parseArn(request.physicalId)), {
      abortSignal: context.signal,
    });
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await lambdaClient(context);
    try {
      const layer = await client.send(new GetLayerVersionCommand(parseArn(request.physicalId)), {
        abortSignal: context.signal,
      });
      return {
        properties: {
          LayerName: parseArn(request.physicalId).LayerName,
          Description: layer.Description,
          CompatibleRuntimes: layer.CompatibleRuntimes,
          CompatibleArchitectures: layer.CompatibleArchitectures,
          ...(layer.LicenseInfo !== undefined ? { LicenseInfo: layer.LicenseInfo } : {}),
        },
        attributes: attributesFor(TYPE, layer),
        creationIdentity: { LayerVersionArn: layer.LayerVersionArn!, CreatedDate: layer.CreatedDate ?? '' },
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
}

/** `arn:aws:lambda:region:account:layer:name:7` → name and number. */
function parseArn(arn: string): { LayerName: string; VersionNumber: number } {
  const parts = arn.split(':');
  return { LayerName: parts[6] ?? '', VersionNumber: Number(parts[7]) };
}
