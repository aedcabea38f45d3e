import { App } from 'aws-cdk-lib';
import { ConsumerStack } from '../lib/consumer-stack.js';
import { StorageStack } from '../lib/storage-stack.js';

// No `env`: the stacks are environment-agnostic, so the demo synthesizes without
// credentials and deploys to whichever account and region cdkd is pointed at.
const app = new App();
const storage = new StorageStack(app, 'CdkdDemoStorage');
new ConsumerStack(app, 'CdkdDemoConsumer', { bucket: storage.bucket });
app.synth();
