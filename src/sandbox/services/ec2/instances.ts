import { SandboxError } from '../../errors.js';
import { randomBytesPooled } from '../../ids.js';
import { HandlerError, type ResourceHandler, type ResourceModel } from '../../resources.js';
import type { Storage } from '../../storage/storage.js';
import type { SandboxContext } from '../../service-module.js';
import { ec2Errors } from './ec2-errors.js';
import type { Tags } from './filters.js';
import { NetworkView, tagsOf, type SubnetView } from './network.js';

const NAMESPACE = 'ec2/instances';
export const INSTANCE_TYPE = 'AWS::EC2::Instance';

interface StoredInstance {
  instanceId: string;
  accountId: string;
  region: string;
  /** The settable properties, as Cloud Control models them. */
  properties: ResourceModel;
  subnetId: string;
  vpcId: string;
  availabilityZone: string;
  /** Chosen at launch, shown once the instance runs. */
  privateIp: string;
  publicIp?: string;
  launchedAt: number;
  runningAt: number;
}

export type InstanceStateName = 'pending' | 'running';

export interface InstanceView {
  instanceId: string;
  imageId: string;
  instanceType: string;
  state: InstanceStateName;
  subnetId: string;
  vpcId: string;
  availabilityZone: string;
  launchedAt: number;
  privateIp?: string;
  privateDnsName?: string;
  publicIp?: string;
  publicDnsName?: string;
  tags: Tags;
}

/** EC2's numeric state codes. */
export const STATE_CODES = {
  pending: 0,
  running: 16,
  'shutting-down': 32,
  terminated: 48,
} as const;

/**
 * EC2 instances, one store for RunInstances and Cloud Control's AWS::EC2::Instance. An
 * instance is `pending` for the latency model's create delay of the type after its launch,
 * then `running`; its addresses and DNS names appear only once it runs.
 */
export class Instances {
  private readonly instances = new Map<string, StoredInstance>();

  private constructor(private readonly context: SandboxContext) {}

  static async load(context: SandboxContext): Promise<Instances> {
    const instances = new Instances(context);
    for (const { doc } of await context.storage.listDocuments<StoredInstance>(NAMESPACE))
      instances.instances.set(doc.instanceId, doc);
    context.resources.register(INSTANCE_TYPE, instances.handler());
    return instances;
  }

  private get storage(): Storage {
    return this.context.storage;
  }

  /** Launches one instance from Cloud Control-shaped properties. */
  async launch(properties: ResourceModel, region: string, accountId: string): Promise<InstanceView> {
    if (typeof properties.ImageId !== 'string' && properties.LaunchTemplate === undefined) {
      throw ec2Errors.missingParameter('ImageId');
    }
    const subnet = this.subnetFor(properties, region, accountId);
    const iface = firstInterface(properties);
    const wantsPublic =
      typeof iface?.AssociatePublicIpAddress === 'boolean'
        ? iface.AssociatePublicIpAddress
        : subnet.mapPublicIpOnLaunch;
    const now = Date.now();
    const stored: StoredInstance = {
      instanceId: `i-${randomBytesPooled(9).toString('hex').slice(0, 17)}`,
      accountId,
      region,
      properties: structuredClone(properties),
      subnetId: subnet.subnetId,
      vpcId: subnet.vpcId,
      availabilityZone: subnet.availabilityZone,
      privateIp:
        typeof properties.PrivateIpAddress === 'string'
          ? properties.PrivateIpAddress
          : hostIn(subnet.cidrBlock),
      ...(wantsPublic ? { publicIp: publicAddress() } : {}),
      launchedAt: now,
      runningAt: now + this.context.latency.forType(INSTANCE_TYPE, 'create'),
    };
    this.instances.set(stored.instanceId, stored);
    await this.storage.putDocument(NAMESPACE, stored.instanceId, stored);
    return this.view(stored);
  }

  async terminate(instanceId: string): Promise<void> {
    this.instances.delete(instanceId);
    await this.storage.deleteDocument(NAMESPACE, instanceId);
  }

  get(instanceId: string, region: string): InstanceView | undefined {
    const stored = this.instances.get(instanceId);
    return stored && stored.region === region ? this.view(stored) : undefined;
  }

  list(region: string, accountId?: string): InstanceView[] {
    return [...this.instances.values()]
      .filter((stored) => stored.region === region && (!accountId || stored.accountId === accountId))
      .map((stored) => this.view(stored));
  }

  /** Every instance, for the sandbox inventory. */
  inventory(): Record<string, Array<{ id: string; region: string }>> {
    const entries = [...this.instances.values()].map((stored) => ({
      id: stored.instanceId,
      region: stored.region,
    }));
    return entries.length > 0 ? { [INSTANCE_TYPE]: entries } : {};
  }

  private view(stored: StoredInstance): InstanceView {
    const running = Date.now() >= stored.runningAt;
    const p = stored.properties;
    return {
      instanceId: stored.instanceId,
      imageId: String(p.ImageId ?? ''),
      instanceType: String(p.InstanceType ?? 'm1.small'),
      state: running ? 'running' : 'pending',
      subnetId: stored.subnetId,
      vpcId: stored.vpcId,
      availabilityZone: stored.availabilityZone,
      launchedAt: stored.launchedAt,
      tags: tagsOf(p),
      ...(running
        ? {
            privateIp: stored.privateIp,
            privateDnsName: privateDnsName(stored.privateIp, stored.region),
            ...(stored.publicIp
              ? { publicIp: stored.publicIp, publicDnsName: publicDnsName(stored.publicIp, stored.region) }
              : {}),
          }
        : {}),
    };
  }

  /** The Cloud Control model: the properties set, and the read-only values known now. */
  private model(stored: StoredInstance): ResourceModel {
    const view = this.view(stored);
    return {
      ...structuredClone(stored.properties),
      InstanceId: view.instanceId,
      AvailabilityZone: view.availabilityZone,
      VpcId: view.vpcId,
      State: { Code: String(STATE_CODES[view.state]), Name: view.state },
      ...(view.privateIp ? { PrivateIp: view.privateIp, PrivateDnsName: view.privateDnsName } : {}),
      ...(view.publicIp ? { PublicIp: view.publicIp, PublicDnsName: view.publicDnsName } : {}),
    };
  }

  private handler(): ResourceHandler {
    const notFound = (identifier: string) =>
      new HandlerError(
        'NotFound',
        `Resource of type '${INSTANCE_TYPE}' with identifier '${identifier}' was not found.`,
      );
    const found = (identifier: string, region: string) => {
      const stored = this.instances.get(identifier);
      return stored && stored.region === region ? stored : undefined;
    };
    return {
      create: async (desired, region, accountId) => {
        const view = await this.launch(desired, region, accountId).catch((error: unknown) => {
          throw error instanceof SandboxError ? new HandlerError('InvalidRequest', error.message) : error;
        });
        return { identifier: view.instanceId, model: this.model(this.instances.get(view.instanceId)!) };
      },
      read: (identifier, region) => {
        const stored = found(identifier, region);
        return stored ? this.model(stored) : undefined;
      },
      update: async (identifier, desired, region) => {
        const stored = found(identifier, region);
        if (!stored) throw notFound(identifier);
        stored.properties = structuredClone(desired);
        await this.storage.putDocument(NAMESPACE, identifier, stored);
        return this.model(stored);
      },
      delete: async (identifier, region) => {
        if (!found(identifier, region)) throw notFound(identifier);
        await this.terminate(identifier);
      },
      list: (region, accountId) =>
        [...this.instances.values()]
          .filter((stored) => stored.region === region && stored.accountId === accountId)
          .map((stored) => ({ identifier: stored.instanceId, model: this.model(stored) })),
    };
  }

  /** The subnet named (directly or on the first network interface), else the zone's default subnet. */
  private subnetFor(properties: ResourceModel, region: string, accountId: string): SubnetView {
    const subnets = new NetworkView(this.context.resources, accountId, region).subnets();
    const named = properties.SubnetId ?? firstInterface(properties)?.SubnetId;
    if (typeof named === 'string') {
      const subnet = subnets.find((candidate) => candidate.subnetId === named);
      if (!subnet)
        throw ec2Errors.notFound('InvalidSubnetID.NotFound', `The subnet ID '${named}' does not exist`);
      return subnet;
    }
    const defaults = subnets.filter((subnet) => subnet.defaultForAz);
    const zone = properties.AvailabilityZone;
    return defaults.find((subnet) => subnet.availabilityZone === zone) ?? defaults[0]!;
  }
}

function firstInterface(properties: ResourceModel): Record<string, unknown> | undefined {
  const interfaces = properties.NetworkInterfaces;
  return Array.isArray(interfaces) ? (interfaces[0] as Record<string, unknown> | undefined) : undefined;
}

/** A host address inside an IPv4 CIDR block (a /16 to /28), avoiding the 4 addresses AWS reserves. */
function hostIn(cidr: string): string {
  const [base, bits] = cidr.split('/');
  const octets = base!.split('.').map(Number);
  const hostBits = 32 - Number(bits ?? 24);
  const size = 2 ** Math.min(hostBits, 16);
  const offset = 4 + (randomBytesPooled(2).readUInt16BE(0) % Math.max(size - 5, 1));
  const start = ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
  const address = (start + offset) >>> 0;
  return [address >>> 24, (address >>> 16) & 255, (address >>> 8) & 255, address & 255].join('.');
}

function publicAddress(): string {
  const [a, b, c] = randomBytesPooled(3);
  return `54.${a! % 256}.${b! % 256}.${(c! % 254) + 1}`;
}

/** EC2's DNS names: `ip-10-0-0-5.ec2.internal` in us-east-1, `ip-...{region}.compute.internal` elsewhere. */
function privateDnsName(ip: string, region: string): string {
  const host = `ip-${ip.replace(/\./g, '-')}`;
  return region === 'us-east-1' ? `${host}.ec2.internal` : `${host}.${region}.compute.internal`;
}

function publicDnsName(ip: string, region: string): string {
  const host = `ec2-${ip.replace(/\./g, '-')}`;
  return region === 'us-east-1'
    ? `${host}.compute-1.amazonaws.com`
    : `${host}.${region}.compute.amazonaws.com`;
}
