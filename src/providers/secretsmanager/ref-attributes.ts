/**
 * What `Ref` and each `Fn::GetAtt` attribute return for AWS::SecretsManager::Secret, as
 * CloudFormation answers: Ref is the secret's ARN (the physical id), GetAtt Id the same
 * ARN. Tested row by row.
 */
export const SECRETS_REF_ATTRIBUTES: Record<
  string,
  { ref: 'physicalId'; attributes: Record<string, string> }
> = {
  'AWS::SecretsManager::Secret': {
    ref: 'physicalId',
    attributes: { Id: 'arn:aws:secretsmanager:{region}:{account}:secret:{name}-{suffix}' },
  },
};
