import type { LifecycleRule, LifecycleRuleFilter, Tag } from '@aws-sdk/client-s3';
import type { JsonObject } from '../provider.js';
import { defined, int, listOf, objectOf, text, type Shape } from './shapes.js';

/** The parts of AWS::S3::Bucket LifecycleConfiguration this provider maps. */
export const LIFECYCLE_SHAPE: Shape = {
  Rules: {
    Id: true,
    Status: true,
    Prefix: true,
    TagFilters: { Key: true, Value: true },
    ObjectSizeGreaterThan: true,
    ObjectSizeLessThan: true,
    ExpirationInDays: true,
    ExpirationDate: true,
    ExpiredObjectDeleteMarker: true,
    NoncurrentVersionExpirationInDays: true,
    NoncurrentVersionExpiration: { NoncurrentDays: true, NewerNoncurrentVersions: true },
    Transitions: { StorageClass: true, TransitionInDays: true, TransitionDate: true },
    NoncurrentVersionTransitions: {
      StorageClass: true,
      TransitionInDays: true,
      NewerNoncurrentVersions: true,
    },
    AbortIncompleteMultipartUpload: { DaysAfterInitiation: true },
  },
};

/** A CloudFormation lifecycle rule as the API's rule (Prefix, tags and sizes become a Filter). */
export function lifecycleRule(rule: JsonObject): LifecycleRule {
  const expiration = defined({
    Days: int(rule.ExpirationInDays),
    Date: rule.ExpirationDate === undefined ? undefined : new Date(String(rule.ExpirationDate)),
    ExpiredObjectDeleteMarker:
      rule.ExpiredObjectDeleteMarker === undefined
        ? undefined
        : String(rule.ExpiredObjectDeleteMarker) === 'true',
  });
  const noncurrent = objectOf(rule.NoncurrentVersionExpiration);
  const noncurrentExpiration = defined({
    NoncurrentDays: int(noncurrent.NoncurrentDays ?? rule.NoncurrentVersionExpirationInDays),
    NewerNoncurrentVersions: int(noncurrent.NewerNoncurrentVersions),
  });
  const abort = objectOf(rule.AbortIncompleteMultipartUpload);
  return defined({
    ID: text(rule.Id),
    Status: String(rule.Status) as LifecycleRule['Status'],
    Filter: lifecycleFilter(rule),
    Expiration: Object.keys(expiration).length > 0 ? expiration : undefined,
    NoncurrentVersionExpiration:
      Object.keys(noncurrentExpiration).length > 0 ? noncurrentExpiration : undefined,
    Transitions: optionalList(
      listOf(rule.Transitions).map((t) =>
        defined({
          StorageClass: String(t.StorageClass) as never,
          Days: int(t.TransitionInDays),
          Date: t.TransitionDate === undefined ? undefined : new Date(String(t.TransitionDate)),
        }),
      ),
    ),
    NoncurrentVersionTransitions: optionalList(
      listOf(rule.NoncurrentVersionTransitions).map((t) =>
        defined({
          StorageClass: String(t.StorageClass) as never,
          NoncurrentDays: int(t.TransitionInDays),
          NewerNoncurrentVersions: int(t.NewerNoncurrentVersions),
        }),
      ),
    ),
    AbortIncompleteMultipartUpload:
      abort.DaysAfterInitiation === undefined
        ? undefined
        : { DaysAfterInitiation: int(abort.DaysAfterInitiation) },
  });
}

function optionalList<T>(list: T[]): T[] | undefined {
  return list.length > 0 ? list : undefined;
}

/** One condition is the filter itself; several go under `And`; none is the empty prefix. */
function lifecycleFilter(rule: JsonObject): LifecycleRuleFilter {
  const tags: Tag[] = listOf(rule.TagFilters).map((t) => ({ Key: String(t.Key), Value: String(t.Value) }));
  const prefix = text(rule.Prefix);
  const greater = int(rule.ObjectSizeGreaterThan);
  const less = int(rule.ObjectSizeLessThan);
  const count = tags.length + [prefix, greater, less].filter((v) => v !== undefined).length;
  if (count === 0) return { Prefix: '' };
  if (count > 1) {
    return {
      And: defined({
        Prefix: prefix,
        Tags: tags.length > 0 ? tags : undefined,
        ObjectSizeGreaterThan: greater,
        ObjectSizeLessThan: less,
      }),
    };
  }
  if (tags.length === 1) return { Tag: tags[0] };
  return defined({ Prefix: prefix, ObjectSizeGreaterThan: greater, ObjectSizeLessThan: less });
}

/** The API's rule back in CloudFormation's shape (observed properties). */
export function cfnLifecycleRule(rule: LifecycleRule): JsonObject {
  const filter = rule.Filter ?? {};
  const and = filter.And ?? {};
  const tags = filter.Tag ? [filter.Tag] : (and.Tags ?? []);
  const prefix = filter.Prefix ?? and.Prefix;
  return defined({
    Id: rule.ID,
    Status: rule.Status,
    Prefix: prefix === '' ? undefined : prefix,
    TagFilters: tags.length > 0 ? tags : undefined,
    ObjectSizeGreaterThan: filter.ObjectSizeGreaterThan ?? and.ObjectSizeGreaterThan,
    ObjectSizeLessThan: filter.ObjectSizeLessThan ?? and.ObjectSizeLessThan,
    ExpirationInDays: rule.Expiration?.Days,
    ExpirationDate: rule.Expiration?.Date?.toISOString(),
    ExpiredObjectDeleteMarker: rule.Expiration?.ExpiredObjectDeleteMarker,
    NoncurrentVersionExpiration: rule.NoncurrentVersionExpiration
      ? defined({ ...rule.NoncurrentVersionExpiration })
      : undefined,
    Transitions: rule.Transitions?.map((t) =>
      defined({
        StorageClass: t.StorageClass,
        TransitionInDays: t.Days,
        TransitionDate: t.Date?.toISOString(),
      }),
    ),
    NoncurrentVersionTransitions: rule.NoncurrentVersionTransitions?.map((t) =>
      defined({
        StorageClass: t.StorageClass,
        TransitionInDays: t.NoncurrentDays,
        NewerNoncurrentVersions: t.NewerNoncurrentVersions,
      }),
    ),
    AbortIncompleteMultipartUpload: rule.AbortIncompleteMultipartUpload,
  });
}
