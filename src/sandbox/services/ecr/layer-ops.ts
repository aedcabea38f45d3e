import { requiredString } from '../../protocols/json.js';
import { ecrErrors } from './ecr-errors.js';
import { isDigest } from './images/digests.js';
import { UploadError, type Upload } from './images/uploads.js';
import { namedRepository, type EcrCall } from './repository-ops.js';

/** The part size InitiateLayerUpload asks clients for. */
const PART_SIZE = 10 * 1024 * 1024;

function uploadOf(call: EcrCall, name: string): Upload {
  const id = requiredString(call.input, 'uploadId', 'InvalidParameterException');
  try {
    return call.uploads.get(call.region, name, id);
  } catch (error) {
    if (error instanceof UploadError) throw ecrErrors.uploadNotFound(id, name, call.repositories.registryId);
    throw error;
  }
}

export async function batchCheckLayerAvailability(call: EcrCall): Promise<unknown> {
  const name = namedRepository(call);
  const digests = Array.isArray(call.input.layerDigests) ? (call.input.layerDigests as string[]) : [];
  const layers: unknown[] = [];
  const failures: unknown[] = [];
  for (const digest of digests) {
    if (!isDigest(digest)) {
      failures.push({
        layerDigest: digest,
        failureCode: 'InvalidLayerDigest',
        failureReason: 'Invalid layer digest',
      });
    } else if (call.images.hasBlob(call.region, name, digest)) {
      layers.push({
        layerDigest: digest,
        layerAvailability: 'AVAILABLE',
        layerSize: call.images.blobs.size(digest),
        mediaType: 'application/vnd.docker.image.rootfs.diff.tar.gzip',
      });
    } else {
      failures.push({
        layerDigest: digest,
        failureCode: 'MissingLayerDigest',
        failureReason: 'Could not find layer',
      });
    }
  }
  return { layers, failures };
}

export async function initiateLayerUpload(call: EcrCall): Promise<unknown> {
  const name = namedRepository(call);
  return { uploadId: call.uploads.start(call.region, name).id, partSize: PART_SIZE };
}

export async function uploadLayerPart(call: EcrCall): Promise<unknown> {
  const name = namedRepository(call);
  const upload = uploadOf(call, name);
  const data = Buffer.from(
    requiredString(call.input, 'layerPartBlob', 'InvalidParameterException'),
    'base64',
  );
  const first = Number(call.input.partFirstByte);
  const last = Number(call.input.partLastByte);
  if (
    !Number.isInteger(first) ||
    !Number.isInteger(last) ||
    last - first + 1 !== data.length ||
    first !== upload.size
  ) {
    throw ecrErrors.invalidLayerPart(
      `The layer part (bytes ${call.input.partFirstByte}-${call.input.partLastByte}, ${data.length} bytes) does not continue upload '${upload.id}', which holds ${upload.size} bytes`,
    );
  }
  call.uploads.append(upload, data, first);
  return {
    registryId: call.repositories.registryId,
    repositoryName: name,
    uploadId: upload.id,
    lastByteReceived: upload.size - 1,
  };
}

export async function completeLayerUpload(call: EcrCall): Promise<unknown> {
  const name = namedRepository(call);
  const upload = uploadOf(call, name);
  const digests = Array.isArray(call.input.layerDigests) ? (call.input.layerDigests as string[]) : [];
  const digest = digests[0] ?? '';
  if (upload.chunks.length === 0) throw ecrErrors.emptyUpload(upload.id);
  if (call.images.hasBlob(call.region, name, digest)) {
    call.uploads.cancel(upload);
    throw ecrErrors.layerExists(digest, name, call.repositories.registryId);
  }
  try {
    await call.uploads.complete(upload, digest);
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    call.uploads.cancel(upload);
    throw ecrErrors.invalidLayer(`Invalid layer digest ${digest}: ${error.message}`);
  }
  return {
    registryId: call.repositories.registryId,
    repositoryName: name,
    uploadId: upload.id,
    layerDigest: digest,
  };
}
