/**
 * What `Ref` and each `Fn::GetAtt` attribute return for AWS::DynamoDB::Table, as
 * CloudFormation answers ({name} is the physical id). Tested row by row.
 */
export const DYNAMODB_REF_ATTRIBUTES: Record<
  string,
  { ref: 'physicalId'; attributes: Record<string, string> }
> = {
  'AWS::DynamoDB::Table': {
    ref: 'physicalId',
    attributes: {
      // DescribeTable TableArn.
      Arn: 'arn:aws:dynamodb:{region}:{account}:table/{name}',
      // DescribeTable LatestStreamArn; present only with a StreamSpecification.
      StreamArn: 'arn:aws:dynamodb:{region}:{account}:table/{name}/stream/{label}',
    },
  },
};
