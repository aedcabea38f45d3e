/**
 * What `Ref` and each `Fn::GetAtt` attribute return for the EventBridge types, as
 * CloudFormation answers. Tested row by row.
 */
export const EVENTS_REF_ATTRIBUTES: Record<
  string,
  { ref: 'physicalId' | 'name-or-bus|name'; attributes: Record<string, string> }
> = {
  // Ref is the bus name (the physical id); Arn and Name from DescribeEventBus.
  'AWS::Events::EventBus': {
    ref: 'physicalId',
    attributes: { Arn: 'arn:aws:events:{region}:{account}:event-bus/{name}', Name: '{name}' },
  },
  // Physical id is the rule ARN; Ref the rule name, `bus|name` on a custom bus; Arn from PutRule.
  'AWS::Events::Rule': {
    ref: 'name-or-bus|name',
    attributes: { Arn: 'arn:aws:events:{region}:{account}:rule/{bus/}{name}', RuleName: '{name}' },
  },
};
