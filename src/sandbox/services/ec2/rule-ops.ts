import { ec2Result } from '../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../request.js';
import { el } from '../../xml.js';
import type { Ec2Call } from './call.js';
import { ec2Errors } from './ec2-errors.js';
import { rulesFromParams } from './rules.js';
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
    const rules = rulesFromParams(call.params);
    if (rules.length === 0) throw ec2Errors.missingParameter('IpPermissions');
    if (mode === 'authorize') await call.securityGroups.authorize(region, groupId, direction, rules);
    else await call.securityGroups.revoke(region, groupId, direction, rules);
    return ec2Result(ACTIONS[direction][mode], [el('return', true)], call.request);
  };
}
