import {
  CreateListenerCommand,
  DeleteListenerCommand,
  DescribeListenersCommand,
  ModifyListenerCommand,
  type ElasticLoadBalancingV2Client,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';
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
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { changedKeys, pick } from '../property-values.js';
import { createTags, elbv2, tagsOf, updateElbv2Tags, notFound } from './client.js';

export const LISTENER_TYPE = 'AWS::ElasticLoadBalancingV2::Listener';

/** What ModifyListener changes in place; the load balancer is fixed. */
const MODIFIABLE = ['Port', 'Protocol', 'DefaultActions', 'Certificates', 'SslPolicy', 'AlpnPolicy'];

/**
 * AWS::ElasticLoadBalancingV2::Listener through CreateListener (tags in the same call),
 * ModifyListener and DeleteListener. Physical id and Ref: the listener's ARN.
 */
export class ListenerProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: LISTENER_TYPE,
    covered: ['LoadBalancerArn', ...MODIFIABLE, 'Tags'],
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await elbv2(context);
    const { properties } = request;
    const { Listeners } = await client.send(
      new CreateListenerCommand({
        ...(sendable(pick(properties, MODIFIABLE)) as object),
        LoadBalancerArn: String(properties.LoadBalancerArn),
        DefaultActions: properties.DefaultActions as never,
        Tags: createTags(properties, request.idempotencyToken),
      }),
      { abortSignal: context.signal },
    );
    const arn = Listeners![0]!.ListenerArn!;
    return { physicalId: arn, attributes: { ListenerArn: arn }, creationIdentity: { ListenerArn: arn } };
  }

  /** The load balancer's listener on the create's port that carries its token tag. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const token = request.idempotencyToken;
    if (!token) return 'unknown';
    const client = await elbv2(context);
    const listeners = await listenersOf(client, String(request.properties.LoadBalancerArn), context);
    const onPort = listeners.find((listener) => listener.Port === Number(request.properties.Port));
    if (!onPort) return 'none';
    const { madeBy } = await tagsOf(client, onPort.ListenerArn!, context, token);
    return madeBy ? { physicalId: onPort.ListenerArn! } : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await elbv2(context);
    const arn = request.physicalId;
    const changed = changedKeys(request.previousProperties, request.properties, MODIFIABLE);
    if (changed.length > 0) {
      await client.send(
        new ModifyListenerCommand({
          ...(sendable(pick(request.properties, changed)) as object),
          ListenerArn: arn,
        }),
        { abortSignal: context.signal },
      );
    }
    await updateElbv2Tags(client, arn, request.previousProperties.Tags, request.properties.Tags, context);
    return { physicalId: arn, attributes: { ListenerArn: arn } };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await elbv2(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(new DeleteListenerCommand({ ListenerArn: request.physicalId }), {
          abortSignal: context.signal,
        }),
      errorCodeIn('ListenerNotFound', 'ListenerNotFoundException'),
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await elbv2(context);
    let live;
    try {
      live = (
        await client.send(new DescribeListenersCommand({ ListenerArns: [request.physicalId] }), {
          abortSignal: context.signal,
        })
      ).Listeners?.[0];
    } catch (error) {
      if (notFound(error, 'ListenerNotFound')) return undefined;
      throw error;
    }
    if (!live) return undefined;
    const { tags } = await tagsOf(client, request.physicalId, context);
    const properties: JsonObject = {
      LoadBalancerArn: live.LoadBalancerArn,
      ...pick(live as JsonObject, MODIFIABLE),
      ...(tags && { Tags: tags }),
    };
    return {
      properties,
      attributes: { ListenerArn: request.physicalId },
      creationIdentity: { ListenerArn: request.physicalId },
    };
  }
}

/** The port as the API's number (a template may give it as text). */
function sendable(properties: JsonObject): JsonObject {
  return properties.Port === undefined ? properties : { ...properties, Port: Number(properties.Port) };
}

async function listenersOf(
  client: ElasticLoadBalancingV2Client,
  balancerArn: string,
  context: ProviderContext,
) {
  try {
    const output = await client.send(new DescribeListenersCommand({ LoadBalancerArn: balancerArn }), {
      abortSignal: context.signal,
    });
    return output.Listeners ?? [];
  } catch (error) {
    if (notFound(error, 'LoadBalancerNotFound')) return [];
    throw error;
  }
}
