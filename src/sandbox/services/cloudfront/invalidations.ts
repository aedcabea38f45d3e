import { SandboxError } from '../../errors.js';
import { randomString } from '../../ids.js';
import { DocumentMap } from '../../storage/document-map.js';
import type { Storage } from '../../storage/storage.js';
import { child, children, el, parseXml, text } from '../../xml.js';

interface InvalidationRecord {
  id: string;
  distributionId: string;
  callerReference: string;
  paths: string[];
  createTime: string;
}

/**
 * A distribution's invalidations. The sandbox caches nothing at the edge, so each one is
 * Completed as soon as it is made (the CDK's BucketDeployment waits for that).
 */
export class Invalidations {
  private constructor(private readonly records: DocumentMap<InvalidationRecord>) {}

  static async load(storage: Storage): Promise<Invalidations> {
    return new Invalidations(await DocumentMap.load<InvalidationRecord>(storage, 'cloudfront/invalidations'));
  }

  /** The invalidation and whether it is new (a repeated CallerReference with the same paths is the same one). */
  async create(distributionId: string, body: Buffer): Promise<{ xml: string; id: string; created: boolean }> {
    const batch = parseXml(body).InvalidationBatch;
    const callerReference = text(batch, 'CallerReference') ?? '';
    const paths = children(child(child(batch, 'Paths'), 'Items'), 'Path').map((path) => String(path));
    if (paths.length === 0 || paths.some((path) => !path.startsWith('/'))) {
      throw new SandboxError(
        'InvalidArgument',
        'Your request contains one or more invalid invalidation paths.',
        400,
      );
    }
    const same = this.records
      .values()
      .find(
        (record) => record.distributionId === distributionId && record.callerReference === callerReference,
      );
    if (same) {
      if (JSON.stringify(same.paths) !== JSON.stringify(paths)) {
        throw new SandboxError(
          'InvalidationBatchAlreadyExists',
          'The CallerReference you are using to create an invalidation batch is already in use.',
          409,
        );
      }
      return { xml: invalidationXml(same), id: same.id, created: false };
    }
    const record = {
      id: `I${randomString(13, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`,
      distributionId,
      callerReference,
      paths,
      createTime: new Date().toISOString(),
    };
    await this.records.put(`${distributionId}/${record.id}`, record);
    return { xml: invalidationXml(record), id: record.id, created: true };
  }

  get(distributionId: string, id: string): string {
    const record = this.records.get(`${distributionId}/${id}`);
    if (!record)
      throw new SandboxError('NoSuchInvalidation', 'The specified invalidation does not exist.', 404);
    return invalidationXml(record);
  }
}

function invalidationXml(record: InvalidationRecord): string {
  return el('Invalidation', [
    el('Id', record.id),
    el('Status', 'Completed'),
    el('CreateTime', record.createTime),
    el('InvalidationBatch', [
      el('Paths', [
        el('Quantity', record.paths.length),
        el(
          'Items',
          record.paths.map((path) => el('Path', path)),
        ),
      ]),
      el('CallerReference', record.callerReference),
    ]),
  ]);
}
