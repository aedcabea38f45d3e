import { createHash } from 'node:crypto';
import { SandboxError } from '../../errors.js';
import { matchRoute, type RestRoute } from '../../protocols/rest-json.js';
import { namespacedRestXmlCodec } from '../../protocols/rest-xml.js';
import type { SandboxResponse } from '../../request.js';
import type { ResourceHandler, ResourceModel } from '../../resources.js';
import type { Codec, ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import { el, parseXml, XML_DECLARATION } from '../../xml.js';
import { distributionConfigFromXml, distributionConfigXml } from './config-xml.js';
import { Invalidations } from './invalidations.js';

const XMLNS = 'http://cloudfront.amazonaws.com/doc/2020-05-31/';
export const DISTRIBUTION_TYPE = 'AWS::CloudFront::Distribution';

const ROUTES: readonly RestRoute[] = [
  { method: 'POST', path: '/2020-05-31/distribution', operation: 'CreateDistribution' },
  { method: 'GET', path: '/2020-05-31/distribution', operation: 'ListDistributions' },
  { method: 'GET', path: '/2020-05-31/distribution/{Id}', operation: 'GetDistribution' },
  { method: 'DELETE', path: '/2020-05-31/distribution/{Id}', operation: 'DeleteDistribution' },
  { method: 'POST', path: '/2020-05-31/distribution/{Id}/invalidation', operation: 'CreateInvalidation' },
  {
    method: 'GET',
    path: '/2020-05-31/distribution/{Id}/invalidation/{InvalidationId}',
    operation: 'GetInvalidation',
  },
];

/** CloudFront's REST-XML: results under the API namespace, errors as `<ErrorResponse><Error>`. */
const cloudFrontCodec: Codec = namespacedRestXmlCodec(XMLNS, 'x-amz-request-id');

/** CloudFront is global: Cloud Control keeps its distributions under us-east-1. */
const HOME_REGION = 'us-east-1';

/**
 * CloudFront distributions over REST-XML, kept where Cloud Control keeps
 * AWS::CloudFront::Distribution, so a distribution a stack made is one CloudFront returns.
 * Minimal: create, get, list and delete (which, as on AWS, needs the distribution disabled
 * and its current ETag in If-Match), and invalidations.
 */
export const createCloudFrontService: ServiceModuleFactory = async (context) => {
  const handler = (): ResourceHandler => context.resources.resolve(DISTRIBUTION_TYPE)!;
  const invalidations = await Invalidations.load(context.storage);
  const find = (id: string, accountId: string): ResourceModel => {
    const model = handler().read(id, HOME_REGION, accountId);
    if (!model)
      throw new SandboxError('NoSuchDistribution', 'The specified distribution does not exist.', 404);
    return model;
  };
  const module: ServiceModule = {
    name: 'cloudfront',
    codec: cloudFrontCodec,
    operation(request) {
      const match = matchRoute(ROUTES, request);
      if (!match)
        throw new SandboxError(
          'InvalidAction',
          `CloudFront does not serve ${request.method} ${request.path}`,
          400,
        );
      return match.operation;
    },
    isMutating: (operation) => /^(Create|Delete)/.test(operation),
    async handle(request, operation) {
      const labels = matchRoute(ROUTES, request)!.labels;
      switch (operation) {
        case 'CreateDistribution': {
          const config = distributionConfigFromXml(parseXml(request.body).DistributionConfig);
          const entry = await handler().create(
            { DistributionConfig: config },
            HOME_REGION,
            request.accountId,
          );
          return result(201, distributionXml(entry.model, request.accountId), {
            location: `https://cloudfront.amazonaws.com/2020-05-31/distribution/${entry.identifier}`,
            etag: etagOf(entry.model),
          });
        }
        case 'CreateInvalidation': {
          find(labels.Id!, request.accountId);
          const made = await invalidations.create(labels.Id!, request.body);
          return result(made.created ? 201 : 200, made.xml, {
            location: `https://cloudfront.amazonaws.com/2020-05-31/distribution/${labels.Id}/invalidation/${made.id}`,
          });
        }
        case 'GetInvalidation':
          find(labels.Id!, request.accountId);
          return result(200, invalidations.get(labels.Id!, labels.InvalidationId!));
        case 'GetDistribution': {
          const model = find(labels.Id!, request.accountId);
          return result(200, distributionXml(model, request.accountId), { etag: etagOf(model) });
        }
        case 'ListDistributions': {
          const models = handler()
            .list(HOME_REGION, request.accountId)
            .map((entry) => entry.model);
          return result(
            200,
            el('DistributionList', [
              el('Marker', ''),
              el('MaxItems', 100),
              el('IsTruncated', false),
              el('Quantity', models.length),
              models.length > 0
                ? el(
                    'Items',
                    models.map((model) => summaryXml(model, request.accountId)),
                  )
                : undefined,
            ]),
          );
        }
        default: {
          const model = find(labels.Id!, request.accountId);
          const ifMatch = request.headers['if-match'];
          if (!ifMatch)
            throw new SandboxError(
              'InvalidIfMatchVersion',
              'The If-Match version is missing or not valid.',
              400,
            );
          if (ifMatch !== etagOf(model))
            throw new SandboxError(
              'PreconditionFailed',
              'The precondition given in one or more of the request header fields evaluated to false.',
              412,
            );
          if (configOf(model).Enabled !== false)
            throw new SandboxError(
              'DistributionNotDisabled',
              'The distribution you are trying to delete has not been disabled.',
              409,
            );
          await handler().delete(labels.Id!, HOME_REGION, request.accountId);
          return { status: 204, headers: {}, body: '' };
        }
      }
    },
    inventory: () => ({}),
  };
  return module;
};

function result(status: number, body: string, headers: Record<string, string> = {}): SandboxResponse {
  const withNamespace = body.replace(/^<(\w+)/, `<$1 xmlns="${XMLNS}"`);
  return {
    status,
    headers: { 'content-type': 'text/xml', ...headers },
    body: XML_DECLARATION + withNamespace,
  };
}

function configOf(model: ResourceModel): ResourceModel {
  return (model.DistributionConfig ?? {}) as ResourceModel;
}

/** The version CloudFront answers in ETag: it changes whenever the distribution does. */
function etagOf(model: ResourceModel): string {
  return `E${createHash('sha256').update(JSON.stringify(model)).digest('hex').slice(0, 13).toUpperCase()}`;
}

const arnOf = (model: ResourceModel, accountId: string) =>
  `arn:aws:cloudfront::${accountId}:distribution/${String(model.Id)}`;

/** A sandbox distribution is deployed at once; its domain name is assigned at create. */
function distributionXml(model: ResourceModel, accountId: string): string {
  return el('Distribution', [
    el('Id', String(model.Id)),
    el('ARN', arnOf(model, accountId)),
    el('Status', 'Deployed'),
    el('LastModifiedTime', new Date().toISOString()),
    el('InProgressInvalidationBatches', 0),
    el('DomainName', String(model.DomainName)),
    distributionConfigXml(configOf(model)),
  ]);
}

function summaryXml(model: ResourceModel, accountId: string): string {
  const config = configOf(model);
  return el('DistributionSummary', [
    el('Id', String(model.Id)),
    el('ARN', arnOf(model, accountId)),
    el('Status', 'Deployed'),
    el('LastModifiedTime', new Date().toISOString()),
    el('DomainName', String(model.DomainName)),
    el('Comment', String(config.Comment ?? '')),
    el('Enabled', config.Enabled === true),
  ]);
}
