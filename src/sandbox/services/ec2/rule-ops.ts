import { ec2Result, itemSet, listParam } from '../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../request.js';
import { el } from '../../xml.js';
import type { Ec2Call } from './call.js';
import { ec2Errors } from './ec2-errors.js';
import { allRules, ruleItems } from './network/index.js';
import { rulesFromParams, type Rule } from './rules.js';
import type { Direction } from './security-groups.js';

const ACTIONS: Readonly<Record<Direction, { authorize: string; revoke: string }>> = {
  ingress: { authorize: 'AuthorizeSecurityGroupIngress', revoke: 'RevokeSecurityGroupIngress' },
  egress: { authorize: 'AuthorizeSecurityGroupEgress', revoke: 'RevokeSecurityGroupEgress' },
};

/** Authorize/Revoke SecurityGroup Ingress/Egress: `GroupId` (or, for ingress, a default-VPC `GroupName`) and IpPermissions. */
export function changeRules(direction: Direction, mode: 'authorize' | 'revoke') {
  return async (call: Ec2Call): Promise<SandboxResponse> => {
    const region = call.request.region;
    const groupId =
      call.params.get('GroupId') ??
      call.securityGroups.list(region).find((group) => group.groupName === call.params.get('GroupName'))
        ?.groupId;
    if (!groupId) {
      const name = call.params.get('GroupName');
      if (name)
        throw ec2Errors.notFound(
          'InvalidGroup.NotFound',
          `The security group '${name}' does not exist in default VPC`,
        );
      throw ec2Errors.missingParameter('GroupId');
    }
    const ruleIds = listParam(call.params, 'SecurityGroupRuleId');
    const rules = [...rulesFromParams(call.params), ...rulesById(call, groupId, direction, ruleIds)];
    if (rules.length === 0) throw ec2Errors.missingParameter('IpPermissions');
    if (mode === 'revoke') {
      await call.securityGroups.revoke(region, groupId, direction, rules);
      return ec2Result(ACTIONS[direction][mode], [el('return', true)], call.request);
    }
    await call.securityGroups.authorize(region, groupId, direction, rules);
    return ec2Result(
      ACTIONS[direction][mode],
      [
        el('return', true),
        itemSet('securityGroupRuleSet', ruleItems(groupId, direction, rules, call.request.accountId)),
      ],
      call.request,
    );
  };
}

/** The rules `SecurityGroupRuleId.N` names (RevokeSecurityGroup* takes ids instead of permissions). */
function rulesById(call: Ec2Call, groupId: string, direction: Direction, ids: string[]): Rule[] {
  const known = allRules(call.securityGroups.list(call.request.region)).filter(
    (entry) => entry.group.groupId === groupId && entry.direction === direction,
  );
  return ids.map((id) => {
    const found = known.find((entry) => entry.id === id);
    if (!found) {
      throw ec2Errors.notFound(
        'InvalidSecurityGroupRuleId.NotFound',
        `The security group rule ID '${id}' does not exist in this security group`,
      );
    }
    return found.rule;
  });
}
