// The public face of toolkit/deploy: deploying an app: the dry-run preflight, recreate targets, saved plans.
export * from './deploy-app.js';
export * from './deploy-preflight.js';
export * from './recreate-targets.js';
