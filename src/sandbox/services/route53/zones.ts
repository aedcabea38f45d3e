import { REGIONS } from '../../account/regions.js';
import { SandboxError } from '../../errors.js';
import type { ResourceHandler, ResourceModel, ResourceHandlers } from '../../resources.js';

const HOSTED_ZONE = 'AWS::Route53::HostedZone';

/** A hosted zone as Route 53's API sees it. */
export interface Zone {
  id: string;
  name: string;
  comment?: string;
  privateZone: boolean;
  vpcs: Array<{ VPCId: string; VPCRegion: string }>;
  nameServers: string[];
  /** Where Cloud Control keeps it (Route 53 is global; Cloud Control's store is per region). */
  region: string;
}

/**
 * Hosted zones live where Cloud Control keeps AWS::Route53::HostedZone, so a zone a stack
 * made is one Route 53 lists, and one made here is one Cloud Control reads. Route 53 is
 * global: every region's zones are one list.
 */
export class Zones {
  constructor(
    private readonly resources: ResourceHandlers,
    private readonly homeRegion: string,
    private readonly accountId: string,
  ) {}

  all(): Zone[] {
    const regions = [...new Set([this.homeRegion, ...REGIONS])];
    return regions.flatMap((region) =>
      this.handler()
        .list(region, this.accountId)
        .map((entry) => zoneOf(entry.model, region)),
    );
  }

  find(id: string): Zone {
    const bare = id.replace(/^\/?hostedzone\//, '');
    const zone = this.all().find((candidate) => candidate.id === bare);
    if (!zone) throw new SandboxError('NoSuchHostedZone', `No hosted zone found with ID: ${bare}`, 404);
    return zone;
  }

  async create(desired: ResourceModel): Promise<Zone> {
    const entry = await this.handler().create(desired, this.homeRegion, this.accountId);
    return zoneOf(entry.model, this.homeRegion);
  }

  async delete(zone: Zone): Promise<void> {
    await this.handler().delete(zone.id, zone.region, this.accountId);
  }

  private handler(): ResourceHandler {
    return this.resources.resolve(HOSTED_ZONE)!;
  }
}

function zoneOf(model: ResourceModel, region: string): Zone {
  const name = String(model.Name);
  const config = (model.HostedZoneConfig ?? {}) as { Comment?: string };
  const vpcs = Array.isArray(model.VPCs) ? (model.VPCs as Zone['vpcs']) : [];
  return {
    id: String(model.Id),
    name: name.endsWith('.') ? name : `${name}.`,
    ...(config.Comment !== undefined ? { comment: config.Comment } : {}),
    privateZone: vpcs.length > 0,
    vpcs,
    nameServers: Array.isArray(model.NameServers) ? (model.NameServers as string[]) : [],
    region,
  };
}

/** Route 53's order for ListHostedZonesByName: by name with its labels reversed (com.example.www). */
export function byReversedName(a: Zone, b: Zone): number {
  const key = (zone: Zone) => zone.name.toLowerCase().replace(/\.$/, '').split('.').reverse().join('.');
  return key(a).localeCompare(key(b)) || a.id.localeCompare(b.id);
}
