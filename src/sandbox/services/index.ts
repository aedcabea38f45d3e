import type { ServiceModuleFactory } from '../service-module.js';
import { createApiGatewayService } from './apigateway/index.js';
import { createApiGatewayManagementService } from './apigateway/management/index.js';
import { createAcmService } from './acm/index.js';
import { createAthenaService } from './athena/index.js';
import { createAutoScalingService } from './autoscaling/index.js';
import { createCodeDeployService } from './codedeploy/index.js';
import { createCodePipelineService } from './codepipeline/index.js';
import { createCognitoService } from './cognito/index.js';
import { createEcrPublicService } from './ecrpublic/index.js';
import { createEcsService } from './ecs/index.js';
import { createEksService } from './eks/index.js';
import { createEmrContainersService } from './emrcontainers/index.js';
import { createGlueService } from './glue/index.js';
import { createOpenSearchService } from './opensearch/index.js';
import { createSyntheticsService } from './synthetics/index.js';
import { createCloudControlService } from './cloudcontrol/index.js';
import { createCloudFrontService } from './cloudfront/index.js';
import { createCloudFormationService } from './cloudformation/index.js';
import { createCloudWatchService } from './cloudwatch/index.js';
import { createDynamoDbService } from './dynamodb/index.js';
import { createEc2Service } from './ec2/index.js';
import { createEcrService } from './ecr/index.js';
import { createElbv2Service } from './elbv2/index.js';
import { createEventsService } from './events/index.js';
import { createIamService } from './iam/index.js';
import { createKinesisService } from './kinesis/index.js';
import { createKmsService } from './kms/index.js';
import { createLambdaService } from './lambda/index.js';
import { createLogsService } from './logs/index.js';
import { createRoute53Service } from './route53/index.js';
import { createS3Service } from './s3/index.js';
import { createSchedulerService } from './scheduler/index.js';
import { createSecretsManagerService } from './secretsmanager/index.js';
import { createSnsService } from './sns/index.js';
import { createSqsService } from './sqs/index.js';
import { createSsmService } from './ssm/index.js';
import { createStepFunctionsService } from './states/index.js';
import { createStsService } from './sts/index.js';

/** The services the sandbox serves. A new service is a factory added here. */
export const builtinServices: readonly ServiceModuleFactory[] = [
  createS3Service,
  createStsService,
  createSsmService,
  createLogsService,
  createDynamoDbService,
  createKmsService,
  createSecretsManagerService,
  createEventsService,
  createCloudControlService,
  createIamService,
  createSqsService,
  createSnsService,
  createLambdaService,
  createEc2Service,
  createRoute53Service,
  createEcrService,
  createElbv2Service,
  createCloudFrontService,
  createCloudFormationService,
  createCloudWatchService,
  createApiGatewayService,
  createApiGatewayManagementService,
  createKinesisService,
  createSchedulerService,
  // The services only the CDK's custom-resource handlers call (docs/_generated/cdk-handler-calls.md).
  createAcmService,
  createAthenaService,
  createAutoScalingService,
  createCodeDeployService,
  createCodePipelineService,
  createCognitoService,
  createEcrPublicService,
  createEcsService,
  createEksService,
  createEmrContainersService,
  createGlueService,
  createOpenSearchService,
  createSyntheticsService,
  createStepFunctionsService,
];
