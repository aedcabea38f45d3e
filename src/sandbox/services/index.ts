import type { ServiceModuleFactory } from '../service-module.js';
import { createCloudControlService } from './cloudcontrol/index.js';
import { createS3Service } from './s3/index.js';
import { createSsmService } from './ssm/index.js';
import { createStsService } from './sts/index.js';

/** The services the sandbox serves. A new service is a factory added here. */
export const builtinServices: readonly ServiceModuleFactory[] = [
  createS3Service,
  createStsService,
  createSsmService,
  createCloudControlService,
];
