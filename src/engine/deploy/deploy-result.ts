export type { StackDeployResult } from '../../messages/index.js';
