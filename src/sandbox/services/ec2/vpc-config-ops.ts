import { createHash } from 'node:crypto';
import { availabilityZones } from '../../account/regions.js';
import { ec2Result, itemSet, listParam } from '../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../request.js';
import type { ResourceModel } from '../../resources.js';
import { el, optionalEl } from '../../xml.js';
import type { Ec2Call } from './call.js';
import { ec2Errors } from './ec2-errors.js';
import { NetworkView } from './network.js';

const ATTRIBUTES = ['enableDnsSupport', 'enableDnsHostnames', 'enableNetworkAddressUsageMetrics'];

/** DescribeVpcAttribute, read from the VPC's model (the default VPC has DNS support and hostnames on). */
export function describeVpcAttribute(call: Ec2Call): SandboxResponse {
  const { region, accountId } = call.request;
  const vpcId = call.params.get('VpcId');
  const attribute = call.params.get('Attribute');
  if (!vpcId) throw ec2Errors.missingParameter('VpcId');
  if (!attribute) throw ec2Errors.missingParameter('Attribute');
  if (!ATTRIBUTES.includes(attribute)) {
    throw ec2Errors.invalidParameterValue(
      `Value (${attribute}) for parameter attribute is invalid. Unknown attribute.`,
    );
  }
  const network = new NetworkView(call.context.resources, accountId, region);
  const vpc = network.vpcs().find((candidate) => candidate.vpcId === vpcId);
  if (!vpc) throw ec2Errors.notFound('InvalidVpcID.NotFound', `The vpc ID '${vpcId}' does not exist`);
  const model = network.models('AWS::EC2::VPC').find((candidate) => candidate.VpcId === vpcId);
  const value = vpc.isDefault
    ? attribute !== 'enableNetworkAddressUsageMetrics'
    : attribute === 'enableDnsSupport'
      ? model?.EnableDnsSupport !== false
      : attribute === 'enableDnsHostnames' && model?.EnableDnsHostnames === true;
  return ec2Result(
    'DescribeVpcAttribute',
    [el('vpcId', vpcId), el(attribute, [el('value', value)])],
    call.request,
  );
}

const SERVICE = 'AWS::EC2::VPCEndpointService';

function service(call: Ec2Call, serviceId: string): ResourceModel {
  const { region, accountId } = call.request;
  const model = call.context.resources.resolve(SERVICE)?.read(serviceId, region, accountId);
  if (!model) {
    throw ec2Errors.notFound(
      'InvalidVpcEndpointServiceId.NotFound',
      `The Vpc Endpoint Service Id '${serviceId}' does not exist`,
    );
  }
  return model;
}

/** The TXT record name and value AWS asks the domain's owner to publish to verify a private DNS name. */
function verification(serviceId: string, name: string): { name: string; value: string } {
  const token = createHash('sha256').update(`${serviceId}/${name}`).digest('hex').slice(0, 20);
  return { name: `_${token.slice(0, 12)}`, value: `vpce:${token}` };
}

export function describeVpcEndpointServiceConfigurations(call: Ec2Call): SandboxResponse {
  const { region, accountId } = call.request;
  const ids = listParam(call.params, 'ServiceId');
  const all = call.context.resources.resolve(SERVICE)?.list(region, accountId) ?? [];
  for (const id of ids) service(call, id);
  const zones = availabilityZones(region).map((zone) => zone.zoneName);
  const shown = all.filter((entry) => ids.length === 0 || ids.includes(entry.identifier));
  return ec2Result(
    'DescribeVpcEndpointServiceConfigurations',
    [
      itemSet(
        'serviceConfigurationSet',
        shown.map(({ identifier, model }) => {
          const dns = call.ec2State.privateDns.get(`${region}/${identifier}`);
          const check = dns && verification(identifier, dns.name);
          return [
            itemSet('serviceType', [[el('serviceType', 'Interface')]]),
            el('serviceId', identifier),
            el('serviceName', `com.amazonaws.vpce.${region}.${identifier}`),
            el('serviceState', 'Available'),
            el(
              'availabilityZoneSet',
              zones.map((zone) => el('item', zone)),
            ),
            el('acceptanceRequired', model.AcceptanceRequired === true),
            el('managesVpcEndpoints', false),
            el(
              'networkLoadBalancerArnSet',
              ((model.NetworkLoadBalancerArns as string[] | undefined) ?? []).map((arn) => el('item', arn)),
            ),
            el('baseEndpointDnsNameSet', [el('item', `${identifier}.${region}.vpce.amazonaws.com`)]),
            optionalEl('privateDnsName', dns?.name),
            ...(dns && check
              ? [
                  el('privateDnsNameConfiguration', [
                    el('state', dns.state),
                    el('type', 'TXT'),
                    el('value', check.value),
                    el('name', check.name),
                  ]),
                ]
              : []),
            el('payerResponsibility', 'ServiceOwner'),
            itemSet('tagSet', []),
            el('owner', accountId),
          ];
        }),
      ),
    ],
    call.request,
  );
}

export async function modifyVpcEndpointServiceConfiguration(call: Ec2Call): Promise<SandboxResponse> {
  const { region } = call.request;
  const serviceId = call.params.get('ServiceId');
  if (!serviceId) throw ec2Errors.missingParameter('ServiceId');
  service(call, serviceId);
  const key = `${region}/${serviceId}`;
  const name = call.params.get('PrivateDnsName');
  if (name) await call.ec2State.privateDns.put(key, { name, state: 'pendingVerification' });
  else if (call.params.get('RemovePrivateDnsName') === 'true') await call.ec2State.privateDns.delete(key);
  return ec2Result('ModifyVpcEndpointServiceConfiguration', [el('return', true)], call.request);
}

/** Verification succeeds at once: the sandbox has no DNS to look the TXT record up in. */
export async function startVpcEndpointServicePrivateDnsVerification(call: Ec2Call): Promise<SandboxResponse> {
  const { region } = call.request;
  const serviceId = call.params.get('ServiceId');
  if (!serviceId) throw ec2Errors.missingParameter('ServiceId');
  service(call, serviceId);
  const key = `${region}/${serviceId}`;
  const dns = call.ec2State.privateDns.get(key);
  if (!dns) {
    throw ec2Errors.invalidParameterValue(`Service ${serviceId} has no private DNS name to verify.`);
  }
  await call.ec2State.privateDns.put(key, { ...dns, state: 'verified' });
  return ec2Result('StartVpcEndpointServicePrivateDnsVerification', [el('return', true)], call.request);
}
