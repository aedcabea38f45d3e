import { HandlerError, type ResourceHandler } from '../../resources.js';
import { DocumentMap } from '../../storage/document-map.js';
import type { Storage } from '../../storage/storage.js';
import { el } from '../../xml.js';
import type { IamHandler } from './call.js';
import { iamErrors } from './iam-errors.js';
import type { Tag } from './model.js';
import { memberList, tagList } from './render.js';

interface ProviderRecord {
  arn: string;
  /** The issuer without its scheme, as IAM returns it. */
  url: string;
  clientIds: string[];
  thumbprints: string[];
  tags: Tag[];
  createdAt: number;
}

const THUMBPRINT = /^[0-9a-fA-F]{40}$/;

function checkUrl(url: string): string {
  if (!/^https:\/\/[^\s/]+(\/\S*)?$/.test(url) || url.length > 255) {
    throw iamErrors.validation(
      `1 validation error detected: Value '${url}' at 'url' failed to satisfy constraint: Member must be a valid https URL`,
    );
  }
  return url.replace(/^https:\/\//, '').replace(/\/$/, '');
}

function checkThumbprints(thumbprints: string[]): string[] {
  if (thumbprints.length > 5 || thumbprints.some((print) => !THUMBPRINT.test(print))) {
    throw iamErrors.validation(
      "1 validation error detected: Value at 'thumbprintList' failed to satisfy constraint: Member must have length less than or equal to 5, each of length 40",
    );
  }
  return thumbprints;
}

/**
 * IAM's OpenID Connect providers: the API the CDK's OIDC provider handler calls, and
 * AWS::IAM::OIDCProvider for Cloud Control, on one store keyed by the provider's ARN.
 */
export class OidcProviders {
  private constructor(private readonly providers: DocumentMap<ProviderRecord>) {}

  static async load(storage: Storage): Promise<OidcProviders> {
    return new OidcProviders(await DocumentMap.load<ProviderRecord>(storage, 'iam/oidc-providers'));
  }

  all(): ProviderRecord[] {
    return this.providers.values();
  }

  private get(arn: string): ProviderRecord {
    const record = this.providers.get(arn);
    if (!record) throw iamErrors.noSuchEntity(`OpenIDConnect Provider not found for arn ${arn}`);
    return record;
  }

  private async create(
    accountId: string,
    url: string,
    clientIds: string[],
    thumbprints: string[],
    tags: Tag[],
  ) {
    const host = checkUrl(url);
    const arn = `arn:aws:iam::${accountId}:oidc-provider/${host}`;
    if (this.providers.get(arn)) throw iamErrors.alreadyExists(`Provider with url ${url} already exists.`);
    const record = {
      arn,
      url: host,
      clientIds,
      thumbprints: checkThumbprints(thumbprints),
      tags,
      createdAt: Date.now(),
    };
    await this.providers.put(arn, record);
    return record;
  }

  handlers(): Record<string, IamHandler> {
    const arnOf = (call: Parameters<IamHandler>[0]) => call.params.required('OpenIDConnectProviderArn');
    const change = async (arn: string, update: (record: ProviderRecord) => ProviderRecord) => {
      await this.providers.put(arn, update(this.get(arn)));
      return [];
    };
    return {
      CreateOpenIDConnectProvider: async ({ params, accountId }) => {
        const record = await this.create(
          accountId,
          params.required('Url'),
          params.members('ClientIDList'),
          params.members('ThumbprintList'),
          params.tags(),
        );
        return [el('OpenIDConnectProviderArn', record.arn), tagList(record.tags)];
      },
      GetOpenIDConnectProvider: (call) => {
        const record = this.get(arnOf(call));
        return [
          el('Url', record.url),
          memberList('ClientIDList', record.clientIds),
          memberList('ThumbprintList', record.thumbprints),
          el('CreateDate', new Date(record.createdAt).toISOString()),
          tagList(record.tags),
        ];
      },
      ListOpenIDConnectProviders: ({ accountId }) => [
        el(
          'OpenIDConnectProviderList',
          this.all()
            .filter((record) => record.arn.startsWith(`arn:aws:iam::${accountId}:`))
            .map((record) => el('member', [el('Arn', record.arn)])),
        ),
      ],
      UpdateOpenIDConnectProviderThumbprint: (call) =>
        change(arnOf(call), (record) => ({
          ...record,
          thumbprints: checkThumbprints(call.params.members('ThumbprintList')),
        })),
      AddClientIDToOpenIDConnectProvider: (call) =>
        change(arnOf(call), (record) => {
          const id = call.params.required('ClientID');
          return {
            ...record,
            clientIds: record.clientIds.includes(id) ? record.clientIds : [...record.clientIds, id],
          };
        }),
      RemoveClientIDFromOpenIDConnectProvider: (call) =>
        change(arnOf(call), (record) => ({
          ...record,
          clientIds: record.clientIds.filter((id) => id !== call.params.required('ClientID')),
        })),
      DeleteOpenIDConnectProvider: async (call) => {
        const arn = arnOf(call);
        this.get(arn);
        await this.providers.delete(arn);
        return [];
      },
    };
  }

  /** AWS::IAM::OIDCProvider, identified by its ARN. */
  resourceHandler(): ResourceHandler {
    const model = (record: ProviderRecord) => ({
      Arn: record.arn,
      Url: `https://${record.url}`,
      ClientIdList: record.clientIds,
      ThumbprintList: record.thumbprints,
      ...(record.tags.length > 0 && { Tags: record.tags }),
    });
    const asHandlerError = async <T>(work: () => Promise<T>): Promise<T> => {
      try {
        return await work();
      } catch (error) {
        const code = (error as { code?: string }).code;
        throw new HandlerError(
          code === 'EntityAlreadyExists' ? 'AlreadyExists' : 'InvalidRequest',
          (error as Error).message,
        );
      }
    };
    const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
    return {
      create: (desired, _region, accountId) =>
        asHandlerError(async () => {
          const record = await this.create(
            accountId,
            String(desired.Url),
            list(desired.ClientIdList),
            list(desired.ThumbprintList),
            (desired.Tags as Tag[] | undefined) ?? [],
          );
          return { identifier: record.arn, model: model(record) };
        }),
      read: (identifier) => {
        const record = this.providers.get(identifier);
        return record && model(record);
      },
      update: (identifier, desired) =>
        asHandlerError(async () => {
          const record = this.get(identifier);
          const next = {
            ...record,
            clientIds: list(desired.ClientIdList),
            thumbprints: checkThumbprints(list(desired.ThumbprintList)),
            tags: (desired.Tags as Tag[] | undefined) ?? [],
          };
          await this.providers.put(identifier, next);
          return model(next);
        }),
      delete: async (identifier) => {
        if (!this.providers.get(identifier)) throw new HandlerError('NotFound', `${identifier} not found`);
        await this.providers.delete(identifier);
      },
      list: (_region, accountId) =>
        this.all()
          .filter((record) => record.arn.startsWith(`arn:aws:iam::${accountId}:`))
          .map((record) => ({ identifier: record.arn, model: model(record) })),
    };
  }
}
