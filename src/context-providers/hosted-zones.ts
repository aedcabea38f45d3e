import {
  GetHostedZoneCommand,
  ListHostedZonesByNameCommand,
  Route53Client,
  type HostedZone,
} from '@aws-sdk/client-route-53';
import { LookupError, type Provider } from './provider.js';

/** The one zone with the domain name, privacy and (for a private zone) VPC asked for: `{ Id, Name }`. */
export const hostedZone: Provider = async (client, query) => {
  const domainName = String(query.domainName);
  const route53 = await client(Route53Client);
  const response = await route53.send(new ListHostedZonesByNameCommand({ DNSName: domainName }));
  const fqdn = domainName.endsWith('.') ? domainName : `${domainName}.`;
  let candidates = (response.HostedZones ?? [])
    .filter((zone) => zone.Name === fqdn)
    .filter((zone) => Boolean(zone.Config?.PrivateZone) === Boolean(query.privateZone));
  if (typeof query.vpcId === 'string') {
    const inVpc: HostedZone[] = [];
    for (const zone of candidates) {
      const details = await route53.send(new GetHostedZoneCommand({ Id: zone.Id }));
      if ((details.VPCs ?? []).some((vpc) => vpc.VPCId === query.vpcId)) inVpc.push(zone);
    }
    candidates = inVpc;
  }
  if (candidates.length !== 1) {
    const filter = `dns:${domainName}, privateZone:${String(query.privateZone)}, vpcId:${String(query.vpcId)}`;
    throw new LookupError(
      `Found zones: ${JSON.stringify(candidates)} for ${filter}, but wanted exactly 1 zone`,
    );
  }
  return { value: { Id: candidates[0]!.Id, Name: candidates[0]!.Name } };
};
