import {
  GetSubscriptionAttributesCommand,
  SetSubscriptionAttributesCommand,
  SubscribeCommand,
  UnsubscribeCommand,
} from '@aws-sdk/client-sns';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { attributeText } from '../property-values.js';
import { isSnsNotFound, snsClient, subscriptionAttributesOf } from './common.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { deleteTreatingNotFoundAsGone } from '../delete-gone.js';

export const SUBSCRIPTION_TYPE = 'AWS::SNS::Subscription';

/**
 * Subscription attributes settable through SetSubscriptionAttributes, with the value a
 * dropped property returns to ('' removes it).
 */
const ATTRIBUTES: Readonly<Record<string, { reset: string; json?: boolean; boolean?: boolean }>> = {
  DeliveryPolicy: { reset: '', json: true },
  FilterPolicy: { reset: '', json: true },
  FilterPolicyScope: { reset: 'MessageAttributes' },
  RawMessageDelivery: { reset: 'false', boolean: true },
  RedrivePolicy: { reset: '', json: true },
  ReplayPolicy: { reset: '', json: true },
  SubscriptionRoleArn: { reset: '' },
};

/** Create-only: the API has no way to move a subscription. Region picks the topic's region. */
const CREATE_ONLY = new Set(['Endpoint', 'Protocol', 'TopicArn', 'Region']);
const PROPERTIES = [...Object.keys(ATTRIBUTES), ...CREATE_ONLY];

function attributesOf(properties: JsonObject): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const name of Object.keys(ATTRIBUTES)) {
    const value = properties[name];
    if (value !== undefined && value !== null) attributes[name] = attributeText(value);
  }
  return attributes;
}

const regionOf = (properties: JsonObject, context: ProviderContext): string =>
  typeof properties.Region === 'string' ? properties.Region : context.region;

/**
 * AWS::SNS::Subscription through Subscribe (with ReturnSubscriptionArn, so an endpoint
 * still to confirm has an ARN too). Subscribe returns the existing subscription for the
 * same topic, protocol and endpoint, so a retried create is safe.
 */
export class SubscriptionProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: SUBSCRIPTION_TYPE,
    covered: PROPERTIES,
    replaces: CREATE_ONLY,
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const { properties } = request;
    const client = await snsClient(context, regionOf(properties, context));
    const attributes = attributesOf(properties);
    const { SubscriptionArn } = await client.send(
      new SubscribeCommand({
        TopicArn: String(properties.TopicArn),
        Protocol: String(properties.Protocol),
        ...(properties.Endpoint !== undefined ? { Endpoint: String(properties.Endpoint) } : {}),
        ...(Object.keys(attributes).length > 0 ? { Attributes: attributes } : {}),
        ReturnSubscriptionArn: true,
      }),
      { abortSignal: context.signal },
    );
    const arn = SubscriptionArn!;
    return {
      physicalId: arn,
      attributes: subscriptionAttributesOf(arn),
      creationIdentity: { SubscriptionArn: arn },
      observed: observedOf(arn),
    };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await snsClient(context, regionOf(request.properties, context));
    const before = attributesOf(request.previousProperties);
    const after = attributesOf(request.properties);
    for (const [name, row] of Object.entries(ATTRIBUTES)) {
      if (before[name] === after[name]) continue;
      await client.send(
        new SetSubscriptionAttributesCommand({
          SubscriptionArn: request.physicalId,
          AttributeName: name,
          AttributeValue: after[name] ?? row.reset,
        }),
        { abortSignal: context.signal },
      );
    }
    return {
      physicalId: request.physicalId,
      attributes: subscriptionAttributesOf(request.physicalId),
      observed: observedOf(request.physicalId),
    };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await snsClient(context, regionOf(request.properties, context));
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(new UnsubscribeCommand({ SubscriptionArn: request.physicalId }), {
          abortSignal: context.signal,
        }),
      isSnsNotFound,
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await snsClient(context, regionOf(request.properties, context));
    try {
      const { Attributes = {} } = await client.send(
        new GetSubscriptionAttributesCommand({ SubscriptionArn: request.physicalId }),
      );
      const properties: JsonObject = {
        TopicArn: Attributes.TopicArn,
        Protocol: Attributes.Protocol,
        Endpoint: Attributes.Endpoint,
      };
      for (const [name, row] of Object.entries(ATTRIBUTES)) {
        const value = Attributes[name];
        if (value === undefined || value === '') continue;
        properties[name] = row.json ? JSON.parse(value) : row.boolean ? value === 'true' : value;
      }
      if (request.properties.Region !== undefined) properties.Region = request.properties.Region;
      return {
        properties,
        attributes: subscriptionAttributesOf(request.physicalId),
        creationIdentity: { SubscriptionArn: request.physicalId },
      };
    } catch (error) {
      if (isSnsNotFound(error)) return undefined;
      throw error;
    }
  }
}

/**
 * Subscribe answers only the subscription's ARN, `{topic ARN}:{id}`: the topic it joined.
 * SetSubscriptionAttributes answers nothing.
 */
function observedOf(arn: string): JsonObject {
  return { TopicArn: arn.slice(0, arn.lastIndexOf(':')) };
}
