import { createHash } from 'node:crypto';
import { SandboxError } from '../../errors.js';
import { requiredString } from '../../protocols/json.js';
import type { ResourceModel } from '../../resources.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { jsonApiModule, writableOf, type ApiCall } from '../api-module.js';

const CERTIFICATE = 'AWS::CertificateManager::Certificate';
type Tag = { Key: string; Value?: string };

/**
 * ACM certificates over JSON 1.1, on Cloud Control's store for
 * AWS::CertificateManager::Certificate. DNS validation succeeds at once: the sandbox has no
 * DNS to check the CNAME in, so a certificate is ISSUED as soon as it is requested.
 */
export const createAcmService: ServiceModuleFactory = async (context) => {
  const store = () => context.resources.resolve(CERTIFICATE)!;
  const find = ({ input, region, accountId }: ApiCall): { arn: string; model: ResourceModel } => {
    const arn = requiredString(input, 'CertificateArn', 'ValidationException');
    const model = store().read(arn, region, accountId);
    if (!model)
      throw new SandboxError('ResourceNotFoundException', `Could not find certificate ${arn}.`, 400);
    return { arn, model };
  };
  const validation = (domain: string) => {
    const token = createHash('sha256').update(domain).digest('hex');
    return {
      DomainName: domain,
      ValidationDomain: domain,
      ValidationStatus: 'SUCCESS',
      ResourceRecord: {
        Name: `_${token.slice(0, 32)}.${domain}.`,
        Type: 'CNAME',
        Value: `_${token.slice(32)}.acm-validations.aws.`,
      },
      ValidationMethod: 'DNS',
    };
  };
  return jsonApiModule({
    name: 'acm',
    version: '1.1',
    target: 'CertificateManager',
    handlers: {
      RequestCertificate: async ({ input, region, accountId }) => {
        const domain = requiredString(input, 'DomainName', 'ValidationException');
        const entry = await store().create(
          {
            DomainName: domain,
            ValidationMethod: input.ValidationMethod ?? 'EMAIL',
            ...(Array.isArray(input.SubjectAlternativeNames) && {
              SubjectAlternativeNames: input.SubjectAlternativeNames,
            }),
            ...(Array.isArray(input.Tags) && { Tags: input.Tags }),
          },
          region,
          accountId,
        );
        return { CertificateArn: entry.identifier };
      },
      DescribeCertificate: (call) => {
        const { arn, model } = find(call);
        const names = [
          String(model.DomainName),
          ...((model.SubjectAlternativeNames as string[] | undefined) ?? []),
        ];
        return {
          Certificate: {
            CertificateArn: arn,
            DomainName: model.DomainName,
            SubjectAlternativeNames: [...new Set(names)],
            DomainValidationOptions: [...new Set(names)].map(validation),
            Status: 'ISSUED',
            Type: 'AMAZON_ISSUED',
            KeyAlgorithm: 'RSA_2048',
            InUseBy: [],
            RenewalEligibility: 'INELIGIBLE',
          },
        };
      },
      ListCertificates: ({ region, accountId }) => ({
        CertificateSummaryList: store()
          .list(region, accountId)
          .map((entry) => ({
            CertificateArn: entry.identifier,
            DomainName: entry.model.DomainName,
            Status: 'ISSUED',
            Type: 'AMAZON_ISSUED',
          })),
      }),
      AddTagsToCertificate: async (call) => {
        const { arn, model } = find(call);
        const added = (call.input.Tags as Tag[] | undefined) ?? [];
        const kept = ((model.Tags as Tag[] | undefined) ?? []).filter(
          (tag) => !added.some((next) => next.Key === tag.Key),
        );
        await store().update(
          arn,
          { ...writableOf(CERTIFICATE, model), Tags: [...kept, ...added] },
          call.region,
          call.accountId,
        );
        return {};
      },
      DeleteCertificate: async (call) => {
        const { arn } = find(call);
        await store().delete(arn, call.region, call.accountId);
        return {};
      },
    },
  });
};
