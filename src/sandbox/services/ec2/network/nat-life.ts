import { stableId } from '../../../account/regions.js';
import type { ResourceModel } from '../../../resources.js';
import type { Ec2Call, NatGatewayLife } from '../call.js';
import type { Tags } from '../filters.js';
import { NetworkView, tagsOf } from '../network.js';
import { entries, KINDS, remove } from './store.js';

export type NatState = 'pending' | 'failed' | 'available' | 'deleting' | 'deleted';

export interface NatGatewayView {
  natGatewayId: string;
  subnetId: string;
  vpcId: string;
  state: NatState;
  connectivityType: string;
  allocationId?: string;
  publicIp?: string;
  privateIp: string;
  networkInterfaceId: string;
  createTime: number;
  deleteTime?: number;
  failure?: { code: string; message: string };
  tags: Tags;
}

/** How long EC2 still lists a deleted NAT gateway (about an hour). */
const DELETED_SHOWN_MS = 60 * 60 * 1000;

export function stateOf(life: NatGatewayLife | undefined, now: number): NatState {
  if (!life) return 'available';
  if (life.goneAt !== undefined) return now >= life.goneAt ? 'deleted' : 'deleting';
  if (life.failure) return 'failed';
  return now >= life.availableAt ? 'available' : 'pending';
}

const lifeKey = (call: Ec2Call, natGatewayId: string) => `${call.request.region}/${natGatewayId}`;

export function lifeOf(call: Ec2Call, natGatewayId: string): NatGatewayLife | undefined {
  return call.ec2State.natGateways.get(lifeKey(call, natGatewayId));
}

export function putLife(call: Ec2Call, natGatewayId: string, life: NatGatewayLife): Promise<void> {
  return call.ec2State.natGateways.put(lifeKey(call, natGatewayId), life);
}

/**
 * The region's NAT gateways as EC2 describes them, deleted ones included while EC2 still
 * lists them. A gateway whose delete has run its course leaves the store here (its network
 * interface released), so what it held in its subnet and address is free from then on.
 */
export async function natGateways(call: Ec2Call): Promise<NatGatewayView[]> {
  const now = call.context.clock.now();
  const { region, accountId } = call.request;
  const network = new NetworkView(call.context.resources, accountId, region);
  const vpcOf = new Map(network.subnets().map((subnet) => [subnet.subnetId, subnet.vpcId]));
  const ipOf = new Map(
    network.models(KINDS.eipalloc.type).map((model) => [String(model.AllocationId), String(model.PublicIp)]),
  );
  const views: NatGatewayView[] = [];
  for (const entry of entries(call, KINDS.nat)) {
    const id = String(entry.model.NatGatewayId);
    const life = lifeOf(call, id);
    if (stateOf(life, now) === 'deleted') {
      await remove(call, KINDS.nat.type, entry);
      await putLife(call, id, {
        ...life!,
        last: { ...entry.model, VpcId: vpcOf.get(String(entry.model.SubnetId)) },
      });
      continue;
    }
    views.push(view(entry.model, life, now, vpcOf.get(String(entry.model.SubnetId)) ?? '', ipOf));
  }
  for (const life of call.ec2State.natGateways.values()) {
    if (!life.last || life.goneAt === undefined || life.region !== region) continue;
    const id = String(life.last.NatGatewayId);
    if (now - life.goneAt > DELETED_SHOWN_MS) {
      await call.ec2State.natGateways.delete(lifeKey(call, id));
      continue;
    }
    views.push(view(life.last, life, now, String(life.last.VpcId ?? ''), ipOf));
  }
  return views;
}

/** The gateways that still hold their subnet and address (not yet deleted). */
export async function liveNatGateways(call: Ec2Call): Promise<NatGatewayView[]> {
  return (await natGateways(call)).filter(
    (gateway) => gateway.state !== 'deleted' && gateway.state !== 'failed',
  );
}

function view(
  model: ResourceModel,
  life: NatGatewayLife | undefined,
  now: number,
  vpcId: string,
  ipOf: Map<string, string>,
): NatGatewayView {
  const id = String(model.NatGatewayId);
  const allocationId = typeof model.AllocationId === 'string' ? model.AllocationId : undefined;
  return {
    natGatewayId: id,
    subnetId: String(model.SubnetId),
    vpcId,
    state: stateOf(life, now),
    connectivityType: String(model.ConnectivityType ?? 'public'),
    ...(allocationId && { allocationId, publicIp: ipOf.get(allocationId) }),
    privateIp: String(model.PrivateIpAddress ?? '10.0.0.10'),
    networkInterfaceId: String(model.EniId ?? stableId('eni', id)),
    createTime: life?.createdAt ?? now,
    ...(life?.deletedAt !== undefined && { deleteTime: life.deletedAt }),
    ...(life?.failure && { failure: life.failure }),
    tags: tagsOf(model),
  };
}
