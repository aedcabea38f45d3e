export { CustomResourceProvider, type CustomResourceDeps } from './provider.js';
export { s3Responses } from './s3-responses.js';
export type { HandlerTransport, ResponseStore, ResponseRead } from './ports.js';
