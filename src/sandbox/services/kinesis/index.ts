import { kinesisStreams } from '../../ports/index.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { jsonApiModule } from '../api-module.js';
import { recordOps } from './record-ops.js';
import { KinesisStore } from './store.js';
import { STREAM, streamResourceHandler } from './stream-resource.js';
import { streamOps } from './stream-ops.js';

/**
 * Kinesis Data Streams over JSON 1.1 (`Kinesis_20131202.<Op>`): streams with shards over the
 * hash key space, records placed by the MD5 of their partition key, read by shard iterator.
 * Streams are ACTIVE as soon as they are made. Also serves AWS::Kinesis::Stream to Cloud
 * Control and its records to Lambda's event source mappings (the `kinesisStreams` port).
 */
export const createKinesisService: ServiceModuleFactory = async (context) => {
  const now = () => context.clock.now();
  const store = await KinesisStore.load(context.storage, now);
  context.resources.register(STREAM, streamResourceHandler(store));
  kinesisStreams.expose(context, store);
  return jsonApiModule({
    name: 'kinesis',
    version: '1.1',
    target: 'Kinesis_20131202',
    handlers: { ...streamOps(store), ...recordOps(store, now) },
    inventory: () => ({
      [STREAM]: store.all().map((stream) => ({
        id: stream.name,
        region: stream.region,
        arn: stream.arn,
        mode: stream.mode,
        shards: stream.shards.length,
        records: stream.records.length,
      })),
    }),
  });
};
