/**
 * The AWS managed policies the sandbox models, by name, as documents it evaluates. AWS's
 * ReadOnlyAccess lists each service's read actions; the sandbox's reads every service's
 * Describe, Get, List and BatchGet actions instead. A managed policy not listed here allows
 * nothing.
 */
const MODELED: Record<string, unknown> = {
  AdministratorAccess: allow('*'),
  PowerUserAccess: {
    Version: '2012-10-17',
    Statement: [
      { Effect: 'Allow', NotAction: ['iam:*', 'organizations:*', 'account:*'], Resource: '*' },
      {
        Effect: 'Allow',
        Action: [
          'iam:CreateServiceLinkedRole',
          'iam:DeleteServiceLinkedRole',
          'iam:ListRoles',
          'organizations:DescribeOrganization',
          'account:ListRegions',
        ],
        Resource: '*',
      },
    ],
  },
  ReadOnlyAccess: allow(['*:Describe*', '*:Get*', '*:List*', '*:BatchGet*']),
  IAMFullAccess: allow('iam:*'),
  AmazonS3FullAccess: allow(['s3:*', 's3-object-lambda:*']),
  AmazonS3ReadOnlyAccess: allow(['s3:Get*', 's3:List*', 's3:Describe*']),
  AmazonSQSFullAccess: allow('sqs:*'),
  AmazonSNSFullAccess: allow('sns:*'),
  AmazonDynamoDBFullAccess: allow('dynamodb:*'),
  AWSLambda_FullAccess: allow('lambda:*'),
  AWSCloudFormationFullAccess: allow('cloudformation:*'),
  AWSLambdaBasicExecutionRole: allow(['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents']),
};

function allow(action: string | string[]): unknown {
  return { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: action, Resource: '*' }] };
}

/** The document of an AWS managed policy (`arn:aws:iam::aws:policy/[service-role/]NAME`) the sandbox models. */
export function awsManagedPolicy(arn: string): unknown {
  const name = /^arn:aws[\w-]*:iam::aws:policy\/(?:.*\/)?([^/]+)$/.exec(arn)?.[1];
  return name === undefined ? undefined : MODELED[name];
}
