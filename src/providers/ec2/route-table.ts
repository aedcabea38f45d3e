import {
  AssociateRouteTableCommand,
  CreateRouteTableCommand,
  DeleteRouteTableCommand,
  DescribeRouteTablesCommand,
  DisassociateRouteTableCommand,
  EC2Client,
  type RouteTable,
} from '@aws-sdk/client-ec2';
import { awsErrorCode } from '../../aws/error-class.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import type {
  CreateResult,
  DeleteRequest,
  LiveResource,
  LocateAnswer,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import {
  deleteGone,
  describeOne,
  ec2,
  locateByToken,
  retag,
  signalOf,
  tagSpecifications,
  templateTags,
  text,
} from './common.js';

export const ROUTE_TABLE_TYPE = 'AWS::EC2::RouteTable';
export const ASSOCIATION_TYPE = 'AWS::EC2::SubnetRouteTableAssociation';
const NOT_FOUND = 'InvalidRouteTableID.NotFound';

/**
 * AWS::EC2::RouteTable through CreateRouteTable (its ClientToken the create's token, so a
 * retried create answers the same table; the token tag for `locate`) and DeleteRouteTable.
 */
export class RouteTableProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: ROUTE_TABLE_TYPE, covered: ['VpcId', 'Tags'] };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const token = request.idempotencyToken;
    const tagSpecs = tagSpecifications('route-table', request);
    const made = await (
      await ec2(context, token ? {} : SINGLE_ATTEMPT)
    ).send(
      new CreateRouteTableCommand({
        VpcId: text(request.properties.VpcId),
        ...(token && { ClientToken: token }),
        ...(tagSpecs && { TagSpecifications: tagSpecs }),
      }),
      signalOf(context),
    );
    const id = made.RouteTable!.RouteTableId!;
    return { physicalId: id, attributes: { RouteTableId: id } };
  }

  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    return locateByToken(request, context, async (client, Filters, options) => {
      return (await client.send(new DescribeRouteTablesCommand({ Filters }), options)).RouteTables?.[0]
        ?.RouteTableId;
    });
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    await retag(
      await ec2(context),
      request.physicalId,
      request.previousProperties,
      request.properties,
      context,
    );
    return { physicalId: request.physicalId, attributes: { RouteTableId: request.physicalId } };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    await deleteGone(
      context,
      (client, options) =>
        client.send(new DeleteRouteTableCommand({ RouteTableId: request.physicalId }), options),
      NOT_FOUND,
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const table = await describeTable(await ec2(context), request.physicalId, context);
    if (!table) return undefined;
    return {
      properties: { VpcId: table.VpcId, ...templateTags(table.Tags) },
      attributes: { RouteTableId: request.physicalId },
    };
  }
}

/**
 * AWS::EC2::SubnetRouteTableAssociation through AssociateRouteTable and
 * DisassociateRouteTable. Physical id and Ref: the association id. A subnet has one explicit
 * association, so the subnet and table pair is what `locate` finds it by.
 */
export class RouteTableAssociationProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: ASSOCIATION_TYPE,
    covered: ['RouteTableId', 'SubnetId'],
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const routeTableId = text(request.properties.RouteTableId) ?? '';
    const subnetId = text(request.properties.SubnetId) ?? '';
    let id: string;
    try {
      const made = await (
        await ec2(context, SINGLE_ATTEMPT)
      ).send(
        new AssociateRouteTableCommand({ RouteTableId: routeTableId, SubnetId: subnetId }),
        signalOf(context),
      );
      id = made.AssociationId!;
    } catch (error) {
      // A retry after a lost answer meets its own association of this subnet with this table.
      const earlier =
        awsErrorCode(error) === 'Resource.AlreadyAssociated'
          ? await associationOf(await ec2(context), subnetId, routeTableId, context)
          : undefined;
      if (!earlier) throw error;
      id = earlier;
    }
    return { physicalId: id, attributes: { Id: id } };
  }

  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const id = await associationOf(
      await ec2(context),
      text(request.properties.SubnetId) ?? '',
      text(request.properties.RouteTableId) ?? '',
      context,
    );
    return id ? { physicalId: id } : 'none';
  }

  /** Both properties are create-only: nothing changes in place. */
  async update(request: UpdateRequest): Promise<UpdateResult> {
    return { physicalId: request.physicalId, attributes: { Id: request.physicalId } };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    await deleteGone(
      context,
      (client, options) =>
        client.send(new DisassociateRouteTableCommand({ AssociationId: request.physicalId }), options),
      'InvalidAssociationID.NotFound',
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const output = await (
      await ec2(context)
    ).send(
      new DescribeRouteTablesCommand({
        Filters: [{ Name: 'association.route-table-association-id', Values: [request.physicalId] }],
      }),
      signalOf(context),
    );
    const association = output.RouteTables?.[0]?.Associations?.find(
      (candidate) => candidate.RouteTableAssociationId === request.physicalId,
    );
    if (!association) return undefined;
    return {
      properties: { RouteTableId: association.RouteTableId, SubnetId: association.SubnetId },
      attributes: { Id: request.physicalId },
    };
  }
}

async function associationOf(
  client: EC2Client,
  subnetId: string,
  routeTableId: string,
  context: ProviderContext,
): Promise<string | undefined> {
  const output = await client.send(
    new DescribeRouteTablesCommand({ Filters: [{ Name: 'association.subnet-id', Values: [subnetId] }] }),
    signalOf(context),
  );
  return output.RouteTables?.flatMap((table) => table.Associations ?? []).find(
    (association) => association.SubnetId === subnetId && association.RouteTableId === routeTableId,
  )?.RouteTableAssociationId;
}

export function describeTable(
  client: EC2Client,
  routeTableId: string,
  context: ProviderContext,
): Promise<RouteTable | undefined> {
  return describeOne(
    context,
    async (options) =>
      (await client.send(new DescribeRouteTablesCommand({ RouteTableIds: [routeTableId] }), options))
        .RouteTables,
    NOT_FOUND,
  );
}
