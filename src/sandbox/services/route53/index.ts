import { matchRoute, type RestRoute } from '../../protocols/rest-json.js';
import { SandboxError } from '../../errors.js';
import type { SandboxRequest, SandboxResponse } from '../../request.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import { child, el, parseXml, text } from '../../xml.js';
import { changeInfoXml, getChange, RecordSets } from './record-sets.js';
import { route53Codec, route53Result } from './route53-codec.js';
import { byReversedName, Zones, type Zone } from './zones.js';

const ROUTES: readonly RestRoute[] = [
  { method: 'POST', path: '/2013-04-01/hostedzone', operation: 'CreateHostedZone' },
  { method: 'GET', path: '/2013-04-01/hostedzone', operation: 'ListHostedZones' },
  { method: 'GET', path: '/2013-04-01/hostedzonesbyname', operation: 'ListHostedZonesByName' },
  { method: 'GET', path: '/2013-04-01/hostedzone/{Id}', operation: 'GetHostedZone' },
  { method: 'DELETE', path: '/2013-04-01/hostedzone/{Id}', operation: 'DeleteHostedZone' },
  { method: 'GET', path: '/2013-04-01/hostedzone/{Id}/rrset', operation: 'ListResourceRecordSets' },
  { method: 'POST', path: '/2013-04-01/hostedzone/{Id}/rrset', operation: 'ChangeResourceRecordSets' },
  { method: 'GET', path: '/2013-04-01/change/{Id}', operation: 'GetChange' },
];

/** Route 53 hosted zones and record sets over REST-XML, kept in Cloud Control's store for their types. */
export const createRoute53Service: ServiceModuleFactory = async (context) => {
  const zones = new Zones(context.resources, context.region, context.accountId);
  const recordSets = new RecordSets(context.resources, zones, context.accountId);
  const module: ServiceModule = {
    name: 'route53',
    codec: route53Codec,
    operation(request) {
      const match = matchRoute(ROUTES, request);
      if (!match)
        throw new SandboxError(
          'InvalidAction',
          `Route 53 does not serve ${request.method} ${request.path}`,
          400,
        );
      return match.operation;
    },
    isMutating: (operation) => /^(Create|Delete|Change)/.test(operation),
    async handle(request, operation) {
      const labels = matchRoute(ROUTES, request)!.labels;
      switch (operation) {
        case 'CreateHostedZone':
          return createHostedZone(zones, request);
        case 'ListHostedZones':
          return route53Result('ListHostedZonesResponse', [
            el('HostedZones', zones.all().sort(byReversedName).map(zoneXml)),
            el('IsTruncated', false),
            el('MaxItems', 100),
          ]);
        case 'ListHostedZonesByName':
          return listByName(zones, request);
        case 'GetHostedZone':
          return getHostedZone(zones.find(labels.Id!));
        case 'ListResourceRecordSets':
          return recordSets.list(labels.Id!, request);
        case 'ChangeResourceRecordSets':
          return recordSets.change(labels.Id!, request);
        case 'GetChange':
          return getChange(labels.Id!);
        default: {
          const zone = zones.find(labels.Id!);
          await zones.delete(zone);
          return route53Result('DeleteHostedZoneResponse', [changeInfoXml('INSYNC')]);
        }
      }
    },
    inventory: () => ({}),
  };
  return module;
};

async function createHostedZone(zones: Zones, request: SandboxRequest): Promise<SandboxResponse> {
  const body = parseXml(request.body).CreateHostedZoneRequest;
  const name = text(body, 'Name');
  if (!name || !/^[a-z0-9_*.-]+\.?$/i.test(name)) {
    throw new SandboxError('InvalidDomainName', `${name ?? ''} is not a valid domain name.`, 400);
  }
  const vpc = child(body, 'VPC');
  const comment = text(child(body, 'HostedZoneConfig'), 'Comment');
  const zone = await zones.create({
    Name: name,
    ...(comment !== undefined ? { HostedZoneConfig: { Comment: comment } } : {}),
    ...(vpc ? { VPCs: [{ VPCId: text(vpc, 'VPCId'), VPCRegion: text(vpc, 'VPCRegion') }] } : {}),
  });
  return route53Result(
    'CreateHostedZoneResponse',
    [zoneXml(zone), changeInfoXml('INSYNC'), zone.privateZone ? vpcXml(zone.vpcs[0]!) : delegationSet(zone)],
    201,
    { location: `https://route53.amazonaws.com/2013-04-01/hostedzone/${zone.id}` },
  );
}

/** Zones in reversed-name order, starting at `dnsname` (and `hostedzoneid` among equal names). */
function listByName(zones: Zones, request: SandboxRequest): SandboxResponse {
  const dnsName = request.query.get('dnsname') ?? undefined;
  const startId = request.query.get('hostedzoneid') ?? undefined;
  const sorted = zones.all().sort(byReversedName);
  const start = dnsName
    ? sorted.findIndex((zone) => {
        const probe = { ...zone, name: dnsName.endsWith('.') ? dnsName : `${dnsName}.`, id: startId ?? '' };
        return byReversedName(zone, probe) >= 0;
      })
    : 0;
  const listed = start < 0 ? [] : sorted.slice(start);
  return route53Result('ListHostedZonesByNameResponse', [
    el('HostedZones', listed.map(zoneXml)),
    dnsName ? el('DNSName', dnsName) : undefined,
    startId ? el('HostedZoneId', startId) : undefined,
    el('IsTruncated', false),
    el('MaxItems', 100),
  ]);
}

function getHostedZone(zone: Zone): SandboxResponse {
  return route53Result('GetHostedZoneResponse', [
    zoneXml(zone),
    zone.privateZone ? el('VPCs', zone.vpcs.map(vpcXml)) : delegationSet(zone),
  ]);
}

function zoneXml(zone: Zone): string {
  return el('HostedZone', [
    el('Id', `/hostedzone/${zone.id}`),
    el('Name', zone.name),
    el('CallerReference', zone.id),
    el('Config', [
      zone.comment !== undefined ? el('Comment', zone.comment) : undefined,
      el('PrivateZone', zone.privateZone),
    ]),
    el('ResourceRecordSetCount', 2),
  ]);
}

const vpcXml = (vpc: Zone['vpcs'][number]) =>
  el('VPC', [el('VPCRegion', vpc.VPCRegion), el('VPCId', vpc.VPCId)]);

const delegationSet = (zone: Zone) =>
  el('DelegationSet', [
    el(
      'NameServers',
      zone.nameServers.map((server) => el('NameServer', server)),
    ),
  ]);
