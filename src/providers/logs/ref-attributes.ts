/**
 * What `Ref` and each `Fn::GetAtt` attribute return for the Logs types, as CloudFormation
 * answers: `ref` names where Ref comes from, each attribute its shape ({name} is the
 * physical id). One row per type; the tests check the providers against it row by row.
 */
export const LOGS_REF_ATTRIBUTES: Record<string, { ref: 'physicalId'; attributes: Record<string, string> }> =
  {
    'AWS::Logs::LogGroup': {
      ref: 'physicalId',
      // DescribeLogGroups' `arn`, with the `:*` CloudFormation keeps.
      attributes: { Arn: 'arn:aws:logs:{region}:{account}:log-group:{name}:*' },
    },
    'AWS::Logs::MetricFilter': { ref: 'physicalId', attributes: {} },
    'AWS::Logs::SubscriptionFilter': { ref: 'physicalId', attributes: {} },
  };
