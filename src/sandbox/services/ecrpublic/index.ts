import { randomBytes } from 'node:crypto';
import { SandboxError } from '../../errors.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { jsonApiModule } from '../api-module.js';

/** ECR Public's login token over JSON 1.1 (served from us-east-1 only, as on AWS). */
export const createEcrPublicService: ServiceModuleFactory = async () =>
  jsonApiModule({
    name: 'ecr-public',
    version: '1.1',
    target: 'SpencerFrontendService',
    handlers: {
      GetAuthorizationToken: ({ region }) => {
        if (region !== 'us-east-1') {
          throw new SandboxError(
            'UnsupportedCommandException',
            'ECR Public is only available in us-east-1.',
            400,
          );
        }
        return {
          authorizationData: {
            authorizationToken: Buffer.from(`AWS:${randomBytes(24).toString('base64')}`).toString('base64'),
            expiresAt: Math.floor(Date.now() / 1000) + 12 * 3600,
          },
        };
      },
    },
  });
