import type { ResourceModel } from '../../resources.js';
import { child, children, el, text, type XmlValue } from '../../xml.js';

/**
 * The parts of a DistributionConfig the sandbox keeps, between CloudFront's XML (lists as
 * `Quantity` + `Items`) and Cloud Control's JSON model (plain arrays).
 */
export function distributionConfigFromXml(node: XmlValue | undefined): ResourceModel {
  const origins = children(child(child(node, 'Origins'), 'Items'), 'Origin').map((origin) => ({
    Id: text(origin, 'Id'),
    DomainName: text(origin, 'DomainName'),
  }));
  const behavior = child(node, 'DefaultCacheBehavior');
  return {
    CallerReference: text(node, 'CallerReference') ?? '',
    Comment: text(node, 'Comment') ?? '',
    Enabled: text(node, 'Enabled') === 'true',
    ...(origins.length > 0 ? { Origins: origins } : {}),
    ...(behavior
      ? {
          DefaultCacheBehavior: {
            TargetOriginId: text(behavior, 'TargetOriginId'),
            ViewerProtocolPolicy: text(behavior, 'ViewerProtocolPolicy'),
          },
        }
      : {}),
  };
}

export function distributionConfigXml(config: ResourceModel): string {
  const origins = Array.isArray(config.Origins) ? (config.Origins as ResourceModel[]) : [];
  const behavior = (config.DefaultCacheBehavior ?? {}) as ResourceModel;
  return el('DistributionConfig', [
    el('CallerReference', String(config.CallerReference ?? '')),
    el('Origins', [
      el('Quantity', origins.length),
      origins.length > 0
        ? el(
            'Items',
            origins.map((origin) =>
              el('Origin', [
                el('Id', String(origin.Id ?? '')),
                el('DomainName', String(origin.DomainName ?? '')),
              ]),
            ),
          )
        : undefined,
    ]),
    el('DefaultCacheBehavior', [
      el('TargetOriginId', String(behavior.TargetOriginId ?? '')),
      el('ViewerProtocolPolicy', String(behavior.ViewerProtocolPolicy ?? 'allow-all')),
    ]),
    el('Comment', String(config.Comment ?? '')),
    el('Enabled', config.Enabled === true),
  ]);
}
