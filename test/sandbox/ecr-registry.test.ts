import { CreateRepositoryCommand, type ECRClient } from '@aws-sdk/client-ecr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import {
  DOCKER_MANIFEST,
  DOCKER_MANIFEST_LIST,
  digestOf,
  indexOf,
  OCI_INDEX,
  pushImage,
  registryCall,
  ecrClient,
  registryLogin,
  scratchImage,
  startRegistrySandbox,
} from './registry-helpers.js';

let sandbox: Sandbox;
let ecr: ECRClient;
let auth: string;

beforeAll(async () => {
  ({ sandbox, ecr, auth } = await startRegistrySandbox());
});
afterAll(async () => {
  ecr.destroy();
  await sandbox.stop();
});

async function repository(name: string, immutable = false): Promise<string> {
  await ecr.send(
    new CreateRepositoryCommand({
      repositoryName: name,
      ...(immutable ? { imageTagMutability: 'IMMUTABLE' } : {}),
    }),
  );
  return name;
}

const ECR_HOST = '000000000000.dkr.ecr.us-east-1.amazonaws.com';

describe('the sandbox ECR registry: authentication', () => {
  it('challenges an unauthenticated /v2/ with Basic, as ECR does, and accepts the GetAuthorizationToken credentials', async () => {
    const bare = await registryCall(sandbox, 'GET', '/v2/');
    expect(bare.status).toBe(401);
    expect(bare.headers['www-authenticate']).toBe(
      `Basic realm="https://${ECR_HOST}/",service="ecr.amazonaws.com"`,
    );
    expect(bare.headers['docker-distribution-api-version']).toBe('registry/2.0');
    expect(bare.json.errors[0].code).toBe('UNAUTHORIZED');

    const ok = await registryCall(sandbox, 'GET', '/v2/', { authorization: auth });
    expect(ok.status).toBe(200);
    expect(ok.headers['docker-distribution-api-version']).toBe('registry/2.0');
  });

  it('refuses credentials it did not issue with 401, whoever the user', async () => {
    const password = Buffer.from(`${(await registryLogin(ecr)).password}x`);
    for (const authorization of [
      `Basic ${Buffer.from(`AWS:${password.toString()}`).toString('base64')}`,
      `Basic ${Buffer.from('admin:admin').toString('base64')}`,
      'Bearer abc',
    ]) {
      const answer = await registryCall(sandbox, 'GET', '/v2/', { authorization });
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toMatch(/^Basic realm=/);
    }
  });

  it('answers on the ECR registry host, and refuses a token of another region there with 403', async () => {
    await repository('hosted');
    const here = await registryCall(sandbox, 'GET', '/v2/hosted/tags/list', {
      authorization: auth,
      host: ECR_HOST,
    });
    expect(here.status).toBe(200);
    expect(here.json).toEqual({ name: 'hosted', tags: [] });

    const west = await registryCall(sandbox, 'GET', '/v2/', {
      host: '000000000000.dkr.ecr.eu-west-1.amazonaws.com',
    });
    expect(west.headers['www-authenticate']).toContain('000000000000.dkr.ecr.eu-west-1.amazonaws.com');
    const wrong = await registryCall(sandbox, 'GET', '/v2/', {
      authorization: auth,
      host: '000000000000.dkr.ecr.eu-west-1.amazonaws.com',
    });
    expect(wrong.status).toBe(403);
    expect(wrong.json.errors[0]).toMatchObject({ code: 'DENIED' });
    expect(wrong.json.errors[0].message).toContain('eu-west-1');
  });

  it('reaches the token region on 127.0.0.1: a repository of another region is not there', async () => {
    const westEcr = ecrClient(sandbox, 'eu-west-1');
    await westEcr.send(new CreateRepositoryCommand({ repositoryName: 'only-west' }));
    const westAuth = (await registryLogin(westEcr)).authorization;
    westEcr.destroy();
    expect(
      (await registryCall(sandbox, 'GET', '/v2/only-west/tags/list', { authorization: westAuth })).status,
    ).toBe(200);
    const east = await registryCall(sandbox, 'GET', '/v2/only-west/tags/list', { authorization: auth });
    expect(east.status).toBe(404);
    expect(east.json.errors[0].code).toBe('NAME_UNKNOWN');
  });
});

describe('the sandbox ECR registry: blobs', () => {
  it('takes a monolithic upload verified by digest and serves it by HEAD and GET', async () => {
    const name = await repository('blobs/mono');
    const data = Buffer.from('layer bytes');
    const digest = digestOf(data);
    const wrong = await registryCall(
      sandbox,
      'POST',
      `/v2/${name}/blobs/uploads/?digest=${digestOf(Buffer.from('other'))}`,
      {
        authorization: auth,
        body: data,
      },
    );
    expect(wrong.status).toBe(400);
    expect(wrong.json.errors[0].code).toBe('DIGEST_INVALID');
    expect(
      (await registryCall(sandbox, 'HEAD', `/v2/${name}/blobs/${digest}`, { authorization: auth })).status,
    ).toBe(404);

    const pushed = await registryCall(sandbox, 'POST', `/v2/${name}/blobs/uploads/?digest=${digest}`, {
      authorization: auth,
      body: data,
    });
    expect(pushed.status).toBe(201);
    expect(pushed.headers.location).toBe(`/v2/${name}/blobs/${digest}`);
    expect(pushed.headers['docker-content-digest']).toBe(digest);

    const head = await registryCall(sandbox, 'HEAD', `/v2/${name}/blobs/${digest}`, { authorization: auth });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(data.length));
    expect(head.headers['docker-content-digest']).toBe(digest);
    const got = await registryCall(sandbox, 'GET', `/v2/${name}/blobs/${digest}`, { authorization: auth });
    expect(got.body).toEqual(data);
  });

  it('answers BLOB_UNKNOWN for a blob the repository does not hold and DIGEST_INVALID for a malformed digest', async () => {
    const name = await repository('blobs/unknown');
    const unknown = await registryCall(sandbox, 'GET', `/v2/${name}/blobs/sha256:${'0'.repeat(64)}`, {
      authorization: auth,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json.errors[0].code).toBe('BLOB_UNKNOWN');
    const malformed = await registryCall(sandbox, 'GET', `/v2/${name}/blobs/md5:abc`, {
      authorization: auth,
    });
    expect(malformed.status).toBe(400);
    expect(malformed.json.errors[0].code).toBe('DIGEST_INVALID');
    const noRepository = await registryCall(sandbox, 'GET', `/v2/nowhere/blobs/sha256:${'0'.repeat(64)}`, {
      authorization: auth,
    });
    expect(noRepository.status).toBe(404);
    expect(noRepository.json.errors[0]).toMatchObject({ code: 'NAME_UNKNOWN', detail: { name: 'nowhere' } });
  });

  it('takes a chunked upload in order, refuses a chunk out of order with 416, and completes with the digest', async () => {
    const name = await repository('blobs/chunked');
    const started = await registryCall(sandbox, 'POST', `/v2/${name}/blobs/uploads/`, {
      authorization: auth,
    });
    expect(started.status).toBe(202);
    const location = String(started.headers.location);
    expect(location).toMatch(new RegExp(`^/v2/${name}/blobs/uploads/[0-9a-f-]{36}$`));
    expect(started.headers['docker-upload-uuid']).toBe(location.split('/').pop());

    const first = await registryCall(sandbox, 'PATCH', location, {
      authorization: auth,
      body: 'hello ',
      headers: { 'content-range': '0-5' },
    });
    expect(first.status).toBe(202);
    expect(first.headers.range).toBe('0-5');
    const gap = await registryCall(sandbox, 'PATCH', location, {
      authorization: auth,
      body: 'xx',
      headers: { 'content-range': '10-11' },
    });
    expect(gap.status).toBe(416);
    expect(gap.json.errors[0].code).toBe('BLOB_UPLOAD_INVALID');
    expect(gap.headers.range).toBe('0-5');
    const streamed = await registryCall(sandbox, 'PATCH', location, {
      authorization: auth,
      body: 'chunked ',
    });
    expect(streamed.headers.range).toBe('0-13');
    expect((await registryCall(sandbox, 'GET', location, { authorization: auth })).status).toBe(204);

    const digest = digestOf(Buffer.from('hello chunked world'));
    const done = await registryCall(sandbox, 'PUT', `${location}?digest=${digest}`, {
      authorization: auth,
      body: 'world',
    });
    expect(done.status).toBe(201);
    expect(done.headers['docker-content-digest']).toBe(digest);
    const got = await registryCall(sandbox, 'GET', `/v2/${name}/blobs/${digest}`, { authorization: auth });
    expect(got.body.toString()).toBe('hello chunked world');
    const after = await registryCall(sandbox, 'GET', location, { authorization: auth });
    expect(after.status).toBe(404);
    expect(after.json.errors[0].code).toBe('BLOB_UPLOAD_UNKNOWN');
  });

  it('drops an upload whose content does not match the digest, and one the client cancels', async () => {
    const name = await repository('blobs/dropped');
    const started = await registryCall(sandbox, 'POST', `/v2/${name}/blobs/uploads/`, {
      authorization: auth,
    });
    const location = String(started.headers.location);
    const bad = await registryCall(sandbox, 'PUT', `${location}?digest=${digestOf(Buffer.from('no'))}`, {
      authorization: auth,
      body: 'yes',
    });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].code).toBe('DIGEST_INVALID');
    expect((await registryCall(sandbox, 'GET', location, { authorization: auth })).status).toBe(404);

    const other = String(
      (await registryCall(sandbox, 'POST', `/v2/${name}/blobs/uploads/`, { authorization: auth })).headers
        .location,
    );
    expect((await registryCall(sandbox, 'DELETE', other, { authorization: auth })).status).toBe(204);
    expect((await registryCall(sandbox, 'PATCH', other, { authorization: auth, body: 'x' })).status).toBe(
      404,
    );
  });

  it('mounts a blob from a repository that holds it, and starts an upload when the source does not', async () => {
    const source = await repository('mount/source');
    const target = await repository('mount/target');
    const data = Buffer.from('shared layer');
    const digest = digestOf(data);
    await registryCall(sandbox, 'POST', `/v2/${source}/blobs/uploads/?digest=${digest}`, {
      authorization: auth,
      body: data,
    });
    const mounted = await registryCall(
      sandbox,
      'POST',
      `/v2/${target}/blobs/uploads/?mount=${digest}&from=${source}`,
      {
        authorization: auth,
      },
    );
    expect(mounted.status).toBe(201);
    expect(mounted.headers.location).toBe(`/v2/${target}/blobs/${digest}`);
    expect(
      (await registryCall(sandbox, 'HEAD', `/v2/${target}/blobs/${digest}`, { authorization: auth })).status,
    ).toBe(200);

    const absent = digestOf(Buffer.from('nobody has this'));
    const fallback = await registryCall(
      sandbox,
      'POST',
      `/v2/${target}/blobs/uploads/?mount=${absent}&from=${source}`,
      {
        authorization: auth,
      },
    );
    expect(fallback.status).toBe(202);
    expect(fallback.headers.location).toMatch(/\/blobs\/uploads\//);
  });
});

describe('the sandbox ECR registry: manifests and tags', () => {
  it('stores an OCI image manifest by tag and serves it by tag and digest in its media type', async () => {
    const name = await repository('manifests/oci');
    const image = scratchImage({ bootstrap: '#!/bin/sh\necho hi\n' });
    const digest = await pushImage(sandbox, auth, name, image, 'v1');
    expect(digest).toBe(digestOf(image.manifest));
    for (const reference of ['v1', digest]) {
      const got = await registryCall(sandbox, 'GET', `/v2/${name}/manifests/${reference}`, {
        authorization: auth,
      });
      expect(got.status).toBe(200);
      expect(got.headers['content-type']).toBe(image.mediaType);
      expect(got.headers['docker-content-digest']).toBe(digest);
      expect(got.body).toEqual(image.manifest);
    }
    const head = await registryCall(sandbox, 'HEAD', `/v2/${name}/manifests/v1`, { authorization: auth });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(image.manifest.length));
  });

  it('stores Docker v2 schema 2 manifests, manifest lists and OCI indexes of manifests it holds', async () => {
    const name = await repository('manifests/multi');
    const amd = scratchImage({ a: 'amd64' }, { mediaType: DOCKER_MANIFEST });
    const arm = scratchImage({ a: 'arm64' }, { mediaType: DOCKER_MANIFEST, architecture: 'arm64' });
    const amdDigest = await pushImage(sandbox, auth, name, amd, digestOf(amd.manifest));
    await pushImage(sandbox, auth, name, arm, digestOf(arm.manifest));
    const list = indexOf(
      [
        { image: amd, architecture: 'amd64' },
        { image: arm, architecture: 'arm64' },
      ],
      DOCKER_MANIFEST_LIST,
    );
    const put = await registryCall(sandbox, 'PUT', `/v2/${name}/manifests/latest`, {
      authorization: auth,
      body: list,
      headers: { 'content-type': DOCKER_MANIFEST_LIST },
    });
    expect(put.status).toBe(201);
    const got = await registryCall(sandbox, 'GET', `/v2/${name}/manifests/latest`, { authorization: auth });
    expect(got.headers['content-type']).toBe(DOCKER_MANIFEST_LIST);
    expect(got.body).toEqual(list);

    const oci = indexOf([{ image: amd, architecture: 'amd64' }]);
    const ociPut = await registryCall(sandbox, 'PUT', `/v2/${name}/manifests/oci`, {
      authorization: auth,
      body: oci,
      headers: { 'content-type': OCI_INDEX },
    });
    expect(ociPut.status).toBe(201);

    const held = await registryCall(sandbox, 'DELETE', `/v2/${name}/manifests/${amdDigest}`, {
      authorization: auth,
    });
    expect(held.status).toBe(403);
    expect(held.json.errors[0].code).toBe('DENIED');

    const stray = indexOf([{ image: scratchImage({ b: 'never pushed' }), architecture: 'amd64' }]);
    const refused = await registryCall(sandbox, 'PUT', `/v2/${name}/manifests/stray`, {
      authorization: auth,
      body: stray,
      headers: { 'content-type': OCI_INDEX },
    });
    expect(refused.status).toBe(404);
    expect(refused.json.errors[0].code).toBe('MANIFEST_UNKNOWN');
  });

  it('refuses a manifest naming a blob the repository lacks, an invalid one, and one whose digest is not its reference', async () => {
    const name = await repository('manifests/refused');
    const image = scratchImage({ x: 'x' });
    const missing = await registryCall(sandbox, 'PUT', `/v2/${name}/manifests/v1`, {
      authorization: auth,
      body: image.manifest,
      headers: { 'content-type': image.mediaType },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.errors[0]).toMatchObject({
      code: 'MANIFEST_BLOB_UNKNOWN',
      detail: digestOf(image.config),
    });

    const invalid = await registryCall(sandbox, 'PUT', `/v2/${name}/manifests/v1`, {
      authorization: auth,
      body: '{"schemaVersion":1}',
      headers: { 'content-type': 'application/vnd.docker.distribution.manifest.v1+json' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.json.errors[0].code).toBe('MANIFEST_INVALID');

    await pushImage(sandbox, auth, name, image, 'v1');
    const mismatch = await registryCall(sandbox, 'PUT', `/v2/${name}/manifests/sha256:${'1'.repeat(64)}`, {
      authorization: auth,
      body: image.manifest,
      headers: { 'content-type': image.mediaType },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.errors[0].code).toBe('DIGEST_INVALID');

    const unknown = await registryCall(sandbox, 'GET', `/v2/${name}/manifests/nope`, { authorization: auth });
    expect(unknown.status).toBe(404);
    expect(unknown.json.errors[0].code).toBe('MANIFEST_UNKNOWN');
  });

  it('lists tags a page at a time with a Link, deletes a tag alone and an image by digest', async () => {
    const name = await repository('manifests/tags');
    const image = scratchImage({ t: 't' });
    for (const tag of ['c', 'a', 'b']) await pushImage(sandbox, auth, name, image, tag);
    expect(
      (await registryCall(sandbox, 'GET', `/v2/${name}/tags/list`, { authorization: auth })).json,
    ).toEqual({
      name,
      tags: ['a', 'b', 'c'],
    });
    const page = await registryCall(sandbox, 'GET', `/v2/${name}/tags/list?n=2`, { authorization: auth });
    expect(page.json.tags).toEqual(['a', 'b']);
    expect(page.headers.link).toBe(`</v2/${name}/tags/list?n=2&last=b>; rel="next"`);
    const rest = await registryCall(sandbox, 'GET', `/v2/${name}/tags/list?n=2&last=b`, {
      authorization: auth,
    });
    expect(rest.json.tags).toEqual(['c']);
    expect(rest.headers.link).toBeUndefined();

    expect(
      (await registryCall(sandbox, 'DELETE', `/v2/${name}/manifests/a`, { authorization: auth })).status,
    ).toBe(202);
    expect(
      (await registryCall(sandbox, 'GET', `/v2/${name}/tags/list`, { authorization: auth })).json.tags,
    ).toEqual(['b', 'c']);
    const digest = digestOf(image.manifest);
    expect(
      (await registryCall(sandbox, 'DELETE', `/v2/${name}/manifests/${digest}`, { authorization: auth }))
        .status,
    ).toBe(202);
    expect(
      (await registryCall(sandbox, 'GET', `/v2/${name}/tags/list`, { authorization: auth })).json.tags,
    ).toEqual([]);
    expect(
      (await registryCall(sandbox, 'GET', `/v2/${name}/manifests/${digest}`, { authorization: auth })).status,
    ).toBe(404);
    expect(
      (
        await registryCall(sandbox, 'HEAD', `/v2/${name}/blobs/${digestOf(image.layer)}`, {
          authorization: auth,
        })
      ).status,
    ).toBe(404);
  });

  it('refuses to move a tag in an IMMUTABLE repository', async () => {
    const name = await repository('manifests/immutable', true);
    await pushImage(sandbox, auth, name, scratchImage({ one: '1' }), 'v1');
    const other = scratchImage({ two: '2' });
    await expect(pushImage(sandbox, auth, name, other, 'v1')).rejects.toThrow(/TAG_INVALID/);
  });
});
