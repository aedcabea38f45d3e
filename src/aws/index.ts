// The public face of src/aws: other top-level folders import it through this file (test/structure).
export * from './bucket-region.js';
export * from './client-factory.js';
export * from './cloudformation-stacks.js';
export * from './cloudformation-exports.js';
export * from './describe-type.js';
export * from './error-class.js';
export * from './proxy-agent.js';
export * from './proxy-settings.js';
export * from './secret-values.js';
export * from './ssm-parameters.js';
export * from './ecs-shape.js';
