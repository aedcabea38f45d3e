import { CreateRouteCommand, DeleteRouteCommand, ReplaceRouteCommand, type Route } from '@aws-sdk/client-ec2';
import { awsErrorCode } from '../../aws/error-class.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
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
import { deleteGone, ec2, signalOf, text } from './common.js';
import { describeTable } from './route-table.js';

export const ROUTE_TYPE = 'AWS::EC2::Route';

const DESTINATIONS = ['DestinationCidrBlock', 'DestinationIpv6CidrBlock'] as const;
/** The targets CreateRoute and ReplaceRoute take under the template's names. */
const TARGETS = [
  'GatewayId',
  'NatGatewayId',
  'InstanceId',
  'EgressOnlyInternetGatewayId',
  'VpcEndpointId',
  'TransitGatewayId',
  'VpcPeeringConnectionId',
  'NetworkInterfaceId',
] as const;

/**
 * AWS::EC2::Route through CreateRoute, ReplaceRoute (another target, in place) and
 * DeleteRoute. Physical id: `<route table id>|<destination>`, Cloud Control's identifier. A
 * route to a NAT gateway still pending is accepted, as EC2 accepts it. A table routes a
 * destination once, so the table and destination are what `locate` finds the route by.
 */
export class RouteProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: ROUTE_TYPE,
    covered: ['RouteTableId', ...DESTINATIONS, ...TARGETS],
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const { routeTableId, destination } = identityOf(request.properties);
    try {
      await (
        await ec2(context, SINGLE_ATTEMPT)
      ).send(
        new CreateRouteCommand({
          RouteTableId: routeTableId,
          ...destinationParams(request.properties),
          ...targetOf(request.properties),
        }),
        signalOf(context),
      );
    } catch (error) {
      // A retry after a lost answer meets its own route: same destination, same target.
      const ours =
        awsErrorCode(error) === 'RouteAlreadyExists' &&
        sameTarget(await liveRoute(request, context), request.properties);
      if (!ours) throw error;
    }
    return { physicalId: `${routeTableId}|${destination}`, attributes: { CidrBlock: destination } };
  }

  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const { routeTableId, destination } = identityOf(request.properties);
    return sameTarget(await liveRoute(request, context), request.properties)
      ? { physicalId: `${routeTableId}|${destination}` }
      : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const { routeTableId, destination } = identityOf(request.properties);
    await (
      await ec2(context)
    ).send(
      new ReplaceRouteCommand({
        RouteTableId: routeTableId,
        ...destinationParams(request.properties),
        ...targetOf(request.properties),
      }),
      signalOf(context),
    );
    return { physicalId: request.physicalId, attributes: { CidrBlock: destination } };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const { routeTableId } = identityOf(request.properties);
    await deleteGone(
      context,
      (client, options) =>
        client.send(
          new DeleteRouteCommand({ RouteTableId: routeTableId, ...destinationParams(request.properties) }),
          options,
        ),
      'InvalidRoute.NotFound',
      'InvalidRouteTableID.NotFound',
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const route = await liveRoute(request, context);
    if (!route) return undefined;
    const { routeTableId, destination } = identityOf(request.properties);
    const properties: JsonObject = { RouteTableId: routeTableId };
    for (const name of [...DESTINATIONS, ...TARGETS]) {
      const value = route[name as keyof Route];
      if (typeof value === 'string') properties[name] = value;
    }
    return { properties, attributes: { CidrBlock: destination } };
  }
}

function identityOf(properties: JsonObject): { routeTableId: string; destination: string } {
  return {
    routeTableId: text(properties.RouteTableId) ?? '',
    destination: text(properties.DestinationCidrBlock) ?? text(properties.DestinationIpv6CidrBlock) ?? '',
  };
}

function destinationParams(properties: JsonObject): JsonObject {
  return Object.fromEntries(
    DESTINATIONS.filter((name) => properties[name] !== undefined).map((name) => [
      name,
      text(properties[name]),
    ]),
  );
}

function targetOf(properties: JsonObject): JsonObject {
  return Object.fromEntries(
    TARGETS.filter((name) => properties[name] !== undefined).map((name) => [name, text(properties[name])]),
  );
}

function sameTarget(route: Route | undefined, properties: JsonObject): boolean {
  if (!route) return false;
  return TARGETS.every((name) => (route[name as keyof Route] ?? undefined) === text(properties[name]));
}

async function liveRoute(
  request: { properties: JsonObject },
  context: ProviderContext,
): Promise<Route | undefined> {
  const { routeTableId, destination } = identityOf(request.properties);
  const table = await describeTable(await ec2(context), routeTableId, context);
  return table?.Routes?.find(
    (route) =>
      (route.DestinationCidrBlock ?? route.DestinationIpv6CidrBlock) === destination &&
      route.Origin !== 'CreateRouteTable',
  );
}
