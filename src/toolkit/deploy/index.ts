// The public face of toolkit/deploy: deploying an app: the dry-run preflight, recreate targets, saved plans.
export * from './cloudformation-notification.js';
export * from './deploy-app.js';
export * from './deploy-preflight.js';
export * from './publish-assets-app.js';
export * from './reapply-recorded.js';
export * from './recreate-targets.js';
export * from './stack-notifications.js';
