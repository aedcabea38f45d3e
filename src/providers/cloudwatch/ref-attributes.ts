/**
 * What `Ref` and each `Fn::GetAtt` attribute return for AWS::CloudWatch::Alarm, as
 * CloudFormation answers ({name} is the physical id, the alarm name). Tested row by row.
 */
export const CLOUDWATCH_REF_ATTRIBUTES: Record<
  string,
  { ref: 'physicalId'; attributes: Record<string, string> }
> = {
  'AWS::CloudWatch::Alarm': {
    ref: 'physicalId',
    attributes: { Arn: 'arn:aws:cloudwatch:{region}:{account}:alarm:{name}' },
  },
};
