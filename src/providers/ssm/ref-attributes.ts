/**
 * What `Ref` and each `Fn::GetAtt` attribute return for AWS::SSM::Parameter, as
 * CloudFormation answers. Tested row by row.
 */
export const SSM_REF_ATTRIBUTES: Record<string, { ref: 'physicalId'; attributes: Record<string, string> }> = {
  'AWS::SSM::Parameter': {
    ref: 'physicalId',
    // Type from DescribeParameters; Value the value the template applied.
    attributes: { Type: '{Type}', Value: '{Value}' },
  },
};
