import { sandboxSchemaFor } from '../../resource-index.js';
import type { ResourceHandlers, ResourceModel } from '../../resources.js';
import type { Storage } from '../../storage/storage.js';
import { ec2Errors } from './ec2-errors.js';
import type { Tags } from './filters.js';
import { NetworkView, tagsOf } from './network.js';
import {
  allowAllEgress,
  ruleFromTemplate,
  ruleToTemplate,
  sameRule,
  selfIngress,
  type Rule,
} from './rules.js';

const NAMESPACE = 'ec2/default-group-rules';

export type Direction = 'ingress' | 'egress';

export interface SecurityGroupView {
  groupId: string;
  groupName: string;
  description: string;
  vpcId: string;
  ingress: Rule[];
  egress: Rule[];
  tags: Tags;
}

interface DefaultGroupRules {
  ingress: Rule[];
  egress: Rule[];
}

/**
 * Security groups as EC2 describes them: every VPC's default group (its rules kept here,
 * AWS's defaults until changed) and the groups Cloud Control holds, whose inline rules
 * live in their Cloud Control model; rules made as separate SecurityGroupIngress/Egress
 * resources are read from those.
 */
export class SecurityGroups {
  private readonly defaults = new Map<string, DefaultGroupRules>();

  private constructor(
    private readonly storage: Storage,
    private readonly resources: ResourceHandlers,
    private readonly accountId: string,
  ) {}

  static async load(
    storage: Storage,
    resources: ResourceHandlers,
    accountId: string,
  ): Promise<SecurityGroups> {
    const groups = new SecurityGroups(storage, resources, accountId);
    for (const { id, doc } of await storage.listDocuments<DefaultGroupRules>(NAMESPACE))
      groups.defaults.set(id, doc);
    return groups;
  }

  list(region: string): SecurityGroupView[] {
    const network = new NetworkView(this.resources, this.accountId, region);
    const separate = (type: string, direction: Direction) =>
      network.models(type).map((model) => {
        const rule = ruleFromTemplate(model, direction);
        return { groupId: String(model.GroupId), rule: rule && { ...rule, id: String(model.Id) } };
      });
    const extra = [
      ...separate('AWS::EC2::SecurityGroupIngress', 'ingress').map((entry) => ({
        ...entry,
        direction: 'ingress' as const,
      })),
      ...separate('AWS::EC2::SecurityGroupEgress', 'egress').map((entry) => ({
        ...entry,
        direction: 'egress' as const,
      })),
    ];
    const withSeparate = (group: SecurityGroupView): SecurityGroupView => {
      for (const entry of extra) {
        if (entry.groupId === group.groupId && entry.rule) group[entry.direction].push(entry.rule);
      }
      return group;
    };
    const defaults = network.vpcs().map((vpc) => {
      const rules =
        this.defaults.get(key(region, vpc.defaultSecurityGroupId)) ??
        this.initialDefault(vpc.defaultSecurityGroupId);
      return {
        groupId: vpc.defaultSecurityGroupId,
        groupName: 'default',
        description: 'default VPC security group',
        vpcId: vpc.vpcId,
        ingress: [...rules.ingress],
        egress: [...rules.egress],
        tags: [],
      };
    });
    const made = network.models('AWS::EC2::SecurityGroup').map((model) => ({
      groupId: String(model.GroupId),
      groupName: String(model.GroupName ?? model.GroupId),
      description: String(model.GroupDescription ?? ''),
      vpcId: String(model.VpcId),
      ...inlineRules(model),
      tags: tagsOf(model),
    }));
    return [...defaults, ...made].map(withSeparate);
  }

  /** Adds rules; any rule the group already has is InvalidPermission.Duplicate and nothing changes. */
  async authorize(region: string, groupId: string, direction: Direction, rules: Rule[]): Promise<void> {
    const group = this.find(region, groupId);
    for (const rule of rules) {
      if (group[direction].some((existing) => sameRule(existing, rule))) {
        throw ec2Errors.duplicateRule(rule.peer.value, rule.protocol);
      }
    }
    await this.write(region, group, direction, (inline) => [...inline, ...rules]);
  }

  /** Removes rules; a rule the group does not have is InvalidPermission.NotFound and nothing changes. */
  async revoke(region: string, groupId: string, direction: Direction, rules: Rule[]): Promise<void> {
    const group = this.find(region, groupId);
    if (!rules.every((rule) => group[direction].some((existing) => sameRule(existing, rule)))) {
      throw ec2Errors.ruleNotFound();
    }
    await this.write(region, group, direction, (inline) =>
      inline.filter((existing) => !rules.some((rule) => sameRule(existing, rule))),
    );
  }

  private find(region: string, groupId: string): SecurityGroupView {
    const group = this.list(region).find((candidate) => candidate.groupId === groupId);
    if (!group) throw ec2Errors.groupNotFound(groupId);
    return group;
  }

  private initialDefault(groupId: string): DefaultGroupRules {
    return { ingress: [selfIngress(groupId, this.accountId)], egress: [allowAllEgress()] };
  }

  /** Changes the rules the group itself holds (not those of separate rule resources). */
  private async write(
    region: string,
    group: SecurityGroupView,
    direction: Direction,
    change: (inline: Rule[]) => Rule[],
  ): Promise<void> {
    if (group.groupName === 'default') {
      const current = this.defaults.get(key(region, group.groupId)) ?? this.initialDefault(group.groupId);
      const next = { ...current, [direction]: change(current[direction]) };
      this.defaults.set(key(region, group.groupId), next);
      await this.storage.putDocument(NAMESPACE, key(region, group.groupId), next);
      return;
    }
    const handler = this.resources.resolve('AWS::EC2::SecurityGroup')!;
    const entry = handler
      .list(region, this.accountId)
      .find((candidate) => candidate.model.GroupId === group.groupId)!;
    const writable = new Set(sandboxSchemaFor('AWS::EC2::SecurityGroup')!.props);
    const desired: ResourceModel = Object.fromEntries(
      Object.entries(entry.model).filter(([name]) => writable.has(name)),
    );
    desired[direction === 'ingress' ? 'SecurityGroupIngress' : 'SecurityGroupEgress'] = change(
      inlineRules(entry.model)[direction],
    ).map((rule) => ruleToTemplate(rule, direction));
    await handler.update(entry.identifier, desired, region, this.accountId);
  }
}

/** A group's inline rules; with no SecurityGroupEgress, AWS's default allow-all egress. */
function inlineRules(model: ResourceModel): { ingress: Rule[]; egress: Rule[] } {
  const read = (value: unknown, direction: Direction) =>
    (Array.isArray(value) ? (value as Array<Record<string, unknown>>) : [])
      .map((entry) => ruleFromTemplate(entry, direction))
      .filter((rule): rule is Rule => rule !== undefined);
  return {
    ingress: read(model.SecurityGroupIngress, 'ingress'),
    egress:
      model.SecurityGroupEgress === undefined
        ? [allowAllEgress()]
        : read(model.SecurityGroupEgress, 'egress'),
  };
}

const key = (region: string, groupId: string): string => `${region}/${groupId}`;
