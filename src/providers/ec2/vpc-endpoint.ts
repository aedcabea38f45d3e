import {
  CreateVpcEndpointCommand,
  DeleteVpcEndpointsCommand,
  DescribeVpcEndpointsCommand,
  EC2Client,
  ModifyVpcEndpointCommand,
  type VpcEndpoint,
} from '@aws-sdk/client-ec2';
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
import {
  describeOne,
  ec2,
  flagValue,
  locateByToken,
  retag,
  signalOf,
  tagSpecifications,
  templateTags,
  text,
} from './common.js';

export const VPC_ENDPOINT_TYPE = 'AWS::EC2::VPCEndpoint';
const NOT_FOUND = 'InvalidVpcEndpointId.NotFound';
const LISTS = [
  {
    property: 'RouteTableIds',
    add: 'AddRouteTableIds',
    remove: 'RemoveRouteTableIds',
    create: 'RouteTableIds',
  },
  { property: 'SubnetIds', add: 'AddSubnetIds', remove: 'RemoveSubnetIds', create: 'SubnetIds' },
  {
    property: 'SecurityGroupIds',
    add: 'AddSecurityGroupIds',
    remove: 'RemoveSecurityGroupIds',
    create: 'SecurityGroupIds',
  },
] as const;

/**
 * AWS::EC2::VPCEndpoint (gateway and interface endpoints) through CreateVpcEndpoint (its
 * ClientToken the create's token; the token tag for `locate`), ModifyVpcEndpoint and
 * DeleteVpcEndpoints. Physical id and Ref: the endpoint id.
 */
export class VpcEndpointProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: VPC_ENDPOINT_TYPE,
    covered: [
      'ServiceName',
      'VpcId',
      'VpcEndpointType',
      'RouteTableIds',
      'SubnetIds',
      'SecurityGroupIds',
      'PolicyDocument',
      'PrivateDnsEnabled',
      'Tags',
    ],
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const { properties } = request;
    const token = request.idempotencyToken;
    const tagSpecs = tagSpecifications('vpc-endpoint', request);
    const made = await (
      await ec2(context, token ? {} : SINGLE_ATTEMPT)
    ).send(
      new CreateVpcEndpointCommand({
        VpcId: text(properties.VpcId),
        ServiceName: text(properties.ServiceName),
        VpcEndpointType: text(properties.VpcEndpointType) as never,
        ...Object.fromEntries(
          LISTS.map((list) => [list.create, listOf(properties[list.property])]).filter(([, v]) => v),
        ),
        ...(properties.PolicyDocument !== undefined && {
          PolicyDocument: policyText(properties.PolicyDocument),
        }),
        ...(properties.PrivateDnsEnabled !== undefined && {
          PrivateDnsEnabled: flagValue(properties.PrivateDnsEnabled),
        }),
        ...(token && { ClientToken: token }),
        ...(tagSpecs && { TagSpecifications: tagSpecs }),
      }),
      signalOf(context),
    );
    const endpoint = made.VpcEndpoint!;
    return { physicalId: endpoint.VpcEndpointId!, attributes: attributesOf(endpoint) };
  }

  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    return locateByToken(request, context, async (client, Filters, options) => {
      return (await client.send(new DescribeVpcEndpointsCommand({ Filters }), options)).VpcEndpoints?.[0]
        ?.VpcEndpointId;
    });
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await ec2(context);
    const before = request.previousProperties;
    const after = request.properties;
    const changes: JsonObject = {};
    for (const list of LISTS) {
      const old = listOf(before[list.property]) ?? [];
      const next = listOf(after[list.property]) ?? [];
      const added = next.filter((id) => !old.includes(id));
      const removed = old.filter((id) => !next.includes(id));
      if (added.length > 0) changes[list.add] = added;
      if (removed.length > 0) changes[list.remove] = removed;
    }
    if (JSON.stringify(before.PolicyDocument) !== JSON.stringify(after.PolicyDocument)) {
      if (after.PolicyDocument === undefined) changes.ResetPolicy = true;
      else changes.PolicyDocument = policyText(after.PolicyDocument);
    }
    if (flagValue(before.PrivateDnsEnabled) !== flagValue(after.PrivateDnsEnabled)) {
      changes.PrivateDnsEnabled = flagValue(after.PrivateDnsEnabled);
    }
    if (Object.keys(changes).length > 0) {
      await client.send(
        new ModifyVpcEndpointCommand({ VpcEndpointId: request.physicalId, ...changes }),
        signalOf(context),
      );
    }
    await retag(client, request.physicalId, before, after, context);
    const endpoint = await describe(client, request.physicalId, context);
    return { physicalId: request.physicalId, attributes: endpoint ? attributesOf(endpoint) : {} };
  }

  /** DeleteVpcEndpoints answers per id: a not-found one is gone, any other failure is raised. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const output = await (
      await ec2(context)
    ).send(new DeleteVpcEndpointsCommand({ VpcEndpointIds: [request.physicalId] }), signalOf(context));
    const failure = output.Unsuccessful?.[0]?.Error;
    if (failure && !/NotFound$/.test(failure.Code ?? '')) {
      const error = new Error(failure.Message ?? `VPC endpoint ${request.physicalId} was not deleted`);
      error.name = failure.Code ?? 'UnsuccessfulDelete';
      throw error;
    }
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const endpoint = await describe(await ec2(context), request.physicalId, context);
    if (!endpoint) return undefined;
    const list = (values: string[] | undefined) => (values && values.length > 0 ? values : undefined);
    return {
      properties: {
        ServiceName: endpoint.ServiceName,
        VpcId: endpoint.VpcId,
        VpcEndpointType: endpoint.VpcEndpointType,
        ...(list(endpoint.RouteTableIds) && { RouteTableIds: endpoint.RouteTableIds }),
        ...(list(endpoint.SubnetIds) && { SubnetIds: endpoint.SubnetIds }),
        ...(list(endpoint.Groups?.map((group) => group.GroupId!)) && {
          SecurityGroupIds: endpoint.Groups!.map((group) => group.GroupId),
        }),
        ...(endpoint.PolicyDocument && { PolicyDocument: JSON.parse(endpoint.PolicyDocument) as unknown }),
        PrivateDnsEnabled: endpoint.PrivateDnsEnabled ?? false,
        ...templateTags(endpoint.Tags),
      },
      attributes: attributesOf(endpoint),
    };
  }
}

function listOf(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.map(String) : undefined;
}

function policyText(policy: unknown): string {
  return typeof policy === 'string' ? policy : JSON.stringify(policy);
}

/** What `Fn::GetAtt` reads; DnsEntries as CloudFormation gives them, `<hosted zone id>:<dns name>`. */
function attributesOf(endpoint: VpcEndpoint): JsonObject {
  return {
    Id: endpoint.VpcEndpointId,
    CreationTimestamp: endpoint.CreationTimestamp?.toISOString(),
    DnsEntries: (endpoint.DnsEntries ?? []).map((entry) => `${entry.HostedZoneId}:${entry.DnsName}`),
    NetworkInterfaceIds: endpoint.NetworkInterfaceIds ?? [],
  };
}

function describe(
  client: EC2Client,
  endpointId: string,
  context: ProviderContext,
): Promise<VpcEndpoint | undefined> {
  return describeOne(
    context,
    async (options) =>
      (await client.send(new DescribeVpcEndpointsCommand({ VpcEndpointIds: [endpointId] }), options))
        .VpcEndpoints,
    NOT_FOUND,
  );
}
