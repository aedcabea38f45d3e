import { createHash } from 'node:crypto';
import { SandboxError } from '../../errors.js';
import { requiredString } from '../../protocols/json.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { DocumentMap } from '../../storage/document-map.js';
import { jsonApiModule } from '../api-module.js';
import { cognitoUsers } from './users.js';

/**
 * Cognito user pools' API over JSON 1.1: pools, clients and domains are read from Cloud
 * Control's store for their types; users (no CloudFormation type) are the module's own.
 */
export const createCognitoService: ServiceModuleFactory = async (context) => {
  const read = (type: string, region: string, accountId: string) =>
    context.resources
      .resolve(type)!
      .list(region, accountId)
      .map((entry) => entry.model);
  const users = cognitoUsers(
    await DocumentMap.load(context.storage, 'cognito/users'),
    (id, region, accountId) =>
      read('AWS::Cognito::UserPool', region, accountId).some((pool) => pool.UserPoolId === id),
  );
  return jsonApiModule({
    name: 'cognito-idp',
    version: '1.1',
    target: 'AWSCognitoIdentityProviderService',
    handlers: {
      ...users.handlers,
      DescribeUserPoolClient: ({ input, region, accountId }) => {
        const poolId = requiredString(input, 'UserPoolId', 'InvalidParameterException');
        const clientId = requiredString(input, 'ClientId', 'InvalidParameterException');
        const client = read('AWS::Cognito::UserPoolClient', region, accountId).find(
          (model) => model.UserPoolId === poolId && model.ClientId === clientId,
        );
        if (!client)
          throw new SandboxError(
            'ResourceNotFoundException',
            `User pool client ${clientId} does not exist.`,
            400,
          );
        return {
          UserPoolClient: {
            UserPoolId: poolId,
            ClientId: clientId,
            ClientName: client.ClientName,
            // A stable secret: the same client reads the same one every time, as on AWS.
            ...(client.GenerateSecret === true && {
              ClientSecret: createHash('sha512')
                .update(`${poolId}/${clientId}`)
                .digest('base64url')
                .slice(0, 51),
            }),
            ExplicitAuthFlows: client.ExplicitAuthFlows,
            AllowedOAuthFlows: client.AllowedOAuthFlows,
            AllowedOAuthScopes: client.AllowedOAuthScopes,
            CallbackURLs: client.CallbackURLs,
            LogoutURLs: client.LogoutURLs,
            SupportedIdentityProviders: client.SupportedIdentityProviders,
          },
        };
      },
      // An unknown domain is an empty description, not an error, as on AWS.
      DescribeUserPoolDomain: ({ input, region, accountId }) => {
        const name = requiredString(input, 'Domain', 'InvalidParameterException');
        const domain = read('AWS::Cognito::UserPoolDomain', region, accountId).find(
          (model) => model.Domain === name,
        );
        if (!domain) return { DomainDescription: {} };
        const hash = createHash('sha256').update(name).digest('hex').slice(0, 13);
        return {
          DomainDescription: {
            UserPoolId: domain.UserPoolId,
            AWSAccountId: accountId,
            Domain: name,
            S3Bucket: `aws-cognito-prod-${region}-assets`,
            CloudFrontDistribution: `d${hash}.cloudfront.net`,
            Version: '1',
            Status: 'ACTIVE',
            ...(domain.CustomDomainConfig !== undefined && { CustomDomainConfig: domain.CustomDomainConfig }),
          },
        };
      },
    },
  });
};
