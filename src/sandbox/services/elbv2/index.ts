import { SandboxError } from '../../errors.js';
import { queryAction, queryCodec, queryParams } from '../../protocols/query.js';
import type { SandboxResponse } from '../../request.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import type { ActiveTimes, Elbv2Call } from './call.js';
import { describeListeners, describeLoadBalancers, describeTargetGroups } from './describes.js';
import {
  createListener,
  createRule,
  deleteListener,
  deleteRule,
  describeRules,
  modifyListener,
  modifyRule,
  setRulePriorities,
} from './listeners.js';
import {
  createLoadBalancer,
  deleteLoadBalancer,
  describeLoadBalancerAttributes,
  modifyLoadBalancerAttributes,
  setProperty,
} from './load-balancers.js';
import { paramObject } from './params.js';
import { addTags, describeTags, removeTags } from './tags.js';
import {
  createTargetGroup,
  deleteTargetGroup,
  describeTargetGroupAttributes,
  modifyTargetGroup,
  modifyTargetGroupAttributes,
} from './target-groups.js';

const OPERATIONS: Readonly<Record<string, (call: Elbv2Call) => SandboxResponse | Promise<SandboxResponse>>> =
  {
    DescribeLoadBalancers: describeLoadBalancers,
    DescribeTargetGroups: describeTargetGroups,
    DescribeListeners: describeListeners,
    DescribeRules: describeRules,
    DescribeTags: describeTags,
    DescribeLoadBalancerAttributes: describeLoadBalancerAttributes,
    DescribeTargetGroupAttributes: describeTargetGroupAttributes,
    CreateLoadBalancer: createLoadBalancer,
    DeleteLoadBalancer: deleteLoadBalancer,
    ModifyLoadBalancerAttributes: modifyLoadBalancerAttributes,
    SetSecurityGroups: setProperty('SetSecurityGroups'),
    SetSubnets: setProperty('SetSubnets'),
    SetIpAddressType: setProperty('SetIpAddressType'),
    CreateTargetGroup: createTargetGroup,
    DeleteTargetGroup: deleteTargetGroup,
    ModifyTargetGroup: modifyTargetGroup,
    ModifyTargetGroupAttributes: modifyTargetGroupAttributes,
    CreateListener: createListener,
    ModifyListener: modifyListener,
    DeleteListener: deleteListener,
    CreateRule: createRule,
    ModifyRule: modifyRule,
    DeleteRule: deleteRule,
    SetRulePriorities: setRulePriorities,
    AddTags: addTags,
    RemoveTags: removeTags,
  };

/**
 * ELBv2 over the query protocol: load balancers, target groups, listeners and rules, their
 * attributes and tags, kept as Cloud Control's models in its store (a resource made either
 * way is one the other reads). A load balancer is provisioning until the latency model's
 * create time has passed, then active.
 */
export const createElbv2Service: ServiceModuleFactory = async (context) => {
  const activeAt: ActiveTimes = new Map();
  const module: ServiceModule = {
    name: 'elasticloadbalancing',
    codec: queryCodec,
    operation: queryAction,
    isMutating: (operation) => !operation.startsWith('Describe'),
    async handle(request, operation) {
      const run = OPERATIONS[operation];
      if (!run) {
        throw new SandboxError(
          'InvalidAction',
          `The action ${operation} is not valid for this web service.`,
          400,
        );
      }
      const params = queryParams(request);
      return run({ request, params, input: paramObject(params), context, activeAt });
    },
    inventory: () => ({}),
  };
  return module;
};
