import { SandboxError } from '../../errors.js';
import { randomString } from '../../ids.js';
import type { SandboxRequest, SandboxResponse } from '../../request.js';
import type { ResourceEntry, ResourceHandler, ResourceHandlers, ResourceModel } from '../../resources.js';
import { child, children, el, parseXml, text, type XmlValue } from '../../xml.js';
import { route53Result } from './route53-codec.js';
import type { Zone, Zones } from './zones.js';

const RECORD_SET = 'AWS::Route53::RecordSet';

const fqdn = (name: string) => (name.endsWith('.') ? name : `${name}.`).toLowerCase();
const reversed = (name: string) => fqdn(name).replace(/\.$/, '').split('.').reverse().join('.');

interface RecordView {
  name: string;
  type: string;
  ttl?: number;
  values: string[];
  alias?: { HostedZoneId: string; DNSName: string; EvaluateTargetHealth: boolean };
}

/**
 * A zone's record sets, kept where Cloud Control keeps AWS::Route53::RecordSet (one store:
 * a record a stack made is one ChangeResourceRecordSets deletes). Every zone also has the
 * SOA and NS records Route 53 makes with it.
 */
export class RecordSets {
  constructor(
    private readonly resources: ResourceHandlers,
    private readonly zones: Zones,
    private readonly accountId: string,
  ) {}

  private handler(): ResourceHandler {
    return this.resources.resolve(RECORD_SET)!;
  }

  private entries(zone: Zone): ResourceEntry[] {
    return this.handler()
      .list(zone.region, this.accountId)
      .filter((entry) => String(entry.model.HostedZoneId ?? '').replace(/^\/hostedzone\//, '') === zone.id);
  }

  private views(zone: Zone): RecordView[] {
    const made: RecordView[] = [
      { name: zone.name, type: 'NS', ttl: 172800, values: zone.nameServers.map(fqdn) },
      {
        name: zone.name,
        type: 'SOA',
        ttl: 900,
        values: [
          `${fqdn(zone.nameServers[0] ?? 'ns-1.awsdns-00.com')} awsdns-hostmaster.amazon.com. 1 7200 900 1209600 86400`,
        ],
      },
    ];
    return [...made, ...this.entries(zone).map(({ model }) => viewOf(model))].sort(
      (a, b) => reversed(a.name).localeCompare(reversed(b.name)) || a.type.localeCompare(b.type),
    );
  }

  list(zoneId: string, request: SandboxRequest): SandboxResponse {
    const zone = this.zones.find(zoneId);
    const startName = request.query.get('name');
    const startType = request.query.get('type');
    const listed = this.views(zone).filter(
      (view) =>
        !startName ||
        reversed(view.name) > reversed(startName) ||
        (reversed(view.name) === reversed(startName) && (!startType || view.type >= startType)),
    );
    return route53Result('ListResourceRecordSetsResponse', [
      el('ResourceRecordSets', listed.map(recordXml)),
      el('IsTruncated', false),
      el('MaxItems', 300),
    ]);
  }

  /** Applies a change batch whole: every change is checked before any is made. */
  async change(zoneId: string, request: SandboxRequest): Promise<SandboxResponse> {
    const zone = this.zones.find(zoneId);
    const batch = child(parseXml(request.body).ChangeResourceRecordSetsRequest, 'ChangeBatch');
    const changes = children(child(batch, 'Changes'), 'Change').map((change) => ({
      action: text(change, 'Action') ?? '',
      set: child(change, 'ResourceRecordSet'),
    }));
    const existing = this.entries(zone);
    const find = (name: string, type: string) =>
      existing.find((entry) => fqdn(String(entry.model.Name)) === fqdn(name) && entry.model.Type === type);
    const problems: string[] = [];
    for (const { action, set } of changes) {
      const name = text(set, 'Name') ?? '';
      const type = text(set, 'Type') ?? '';
      const label = `[name='${fqdn(name)}', type='${type}']`;
      if (!fqdn(name).endsWith(zone.name.toLowerCase())) {
        problems.push(`RRSet with DNS name ${fqdn(name)} is not permitted in zone ${zone.name}`);
      } else if (action === 'CREATE' && find(name, type)) {
        problems.push(`Tried to create resource record set ${label} but it already exists`);
      } else if (action === 'DELETE' && !find(name, type)) {
        problems.push(`Tried to delete resource record set ${label} but it was not found`);
      } else if (!['CREATE', 'DELETE', 'UPSERT'].includes(action)) {
        problems.push(`Invalid action ${action}`);
      }
    }
    if (problems.length > 0) {
      throw new SandboxError('InvalidChangeBatch', `[${problems.join(', ')}]`, 400);
    }
    const handler = this.handler();
    for (const { action, set } of changes) {
      const desired = modelOf(zone, set);
      const current = find(String(desired.Name), String(desired.Type));
      if (action === 'DELETE' || (action === 'UPSERT' && current)) {
        await handler.delete(current!.identifier, zone.region, this.accountId);
      }
      if (action !== 'DELETE') await handler.create(desired, zone.region, this.accountId);
    }
    return route53Result('ChangeResourceRecordSetsResponse', [changeInfoXml('PENDING')]);
  }
}

function modelOf(zone: Zone, set: XmlValue | undefined): ResourceModel {
  const alias = child(set, 'AliasTarget');
  const ttl = text(set, 'TTL');
  const values = children(child(set, 'ResourceRecords'), 'ResourceRecord').map(
    (record) => text(record, 'Value') ?? '',
  );
  return {
    HostedZoneId: zone.id,
    Name: fqdn(text(set, 'Name') ?? ''),
    Type: text(set, 'Type') ?? '',
    ...(ttl !== undefined && { TTL: ttl }),
    ...(values.length > 0 && { ResourceRecords: values }),
    ...(alias && {
      AliasTarget: {
        HostedZoneId: text(alias, 'HostedZoneId'),
        DNSName: text(alias, 'DNSName'),
        EvaluateTargetHealth: text(alias, 'EvaluateTargetHealth') === 'true',
      },
    }),
  };
}

function viewOf(model: ResourceModel): RecordView {
  const alias = model.AliasTarget as RecordView['alias'] | undefined;
  return {
    name: fqdn(String(model.Name)),
    type: String(model.Type),
    ...(model.TTL !== undefined && { ttl: Number(model.TTL) }),
    values: Array.isArray(model.ResourceRecords) ? model.ResourceRecords.map(String) : [],
    ...(alias && { alias }),
  };
}

function recordXml(view: RecordView): string {
  return el('ResourceRecordSet', [
    el('Name', view.name),
    el('Type', view.type),
    view.ttl !== undefined ? el('TTL', view.ttl) : undefined,
    view.values.length > 0
      ? el(
          'ResourceRecords',
          view.values.map((value) => el('ResourceRecord', [el('Value', value)])),
        )
      : undefined,
    view.alias
      ? el('AliasTarget', [
          el('HostedZoneId', view.alias.HostedZoneId),
          el('DNSName', view.alias.DNSName),
          el('EvaluateTargetHealth', view.alias.EvaluateTargetHealth),
        ])
      : undefined,
  ]);
}

/** A change's status: changes reach every name server at once in the sandbox, so GetChange says INSYNC. */
export function changeInfoXml(status: 'PENDING' | 'INSYNC', id?: string): string {
  return el('ChangeInfo', [
    el('Id', `/change/${id ?? `C${randomString(20, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`}`),
    el('Status', status),
    el('SubmittedAt', new Date().toISOString()),
  ]);
}

export function getChange(id: string): SandboxResponse {
  return route53Result('GetChangeResponse', [changeInfoXml('INSYNC', id.replace(/^\/?change\//, ''))]);
}
