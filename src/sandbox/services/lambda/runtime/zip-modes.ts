/**
 * The Unix modes a zip's central directory records per entry (a zip made on Unix keeps them
 * in the high half of each entry's external attributes): Lambda extracts packages and
 * layers with them, so an executable in a layer (`/opt/awscli/aws`) stays executable, and a
 * symbolic link stays a link. Entries from other systems, or a zip that cannot be read,
 * give no modes.
 */

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_HEADER = 0x02014b50;
const UNIX = 3;

export const SYMLINK = 0o120000;
const FILE_TYPE = 0o170000;

export function zipModes(bytes: Uint8Array): Map<string, number> {
  const modes = new Map<string, number>();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEnd(view);
  if (end === undefined) return modes;
  let count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  if (
    (count === 0xffff || offset === 0xffffffff) &&
    end >= 20 &&
    view.getUint32(end - 20, true) === ZIP64_LOCATOR
  ) {
    const zip64 = Number(view.getBigUint64(end - 20 + 8, true));
    if (zip64 + 56 > view.byteLength || view.getUint32(zip64, true) !== ZIP64_EOCD) return modes;
    count = Number(view.getBigUint64(zip64 + 32, true));
    offset = Number(view.getBigUint64(zip64 + 48, true));
  }
  for (let index = 0; index < count && offset + 46 <= view.byteLength; index += 1) {
    if (view.getUint32(offset, true) !== CENTRAL_HEADER) break;
    const madeBy = view.getUint16(offset + 4, true) >> 8;
    const flags = view.getUint16(offset + 8, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const mode = view.getUint32(offset + 38, true) >>> 16;
    const nameBytes = bytes.subarray(offset + 46, offset + 46 + nameLength);
    const name = Buffer.from(nameBytes).toString(flags & 0x800 ? 'utf8' : 'latin1');
    if (madeBy === UNIX && mode !== 0) modes.set(name, mode);
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return modes;
}

export function isSymlink(mode: number | undefined): boolean {
  return mode !== undefined && (mode & FILE_TYPE) === SYMLINK;
}

/** The end-of-central-directory record, searched from the end (past a comment of up to 64 KiB). */
function findEnd(view: DataView): number | undefined {
  const lowest = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let at = view.byteLength - 22; at >= lowest; at -= 1) {
    if (view.getUint32(at, true) === EOCD) return at;
  }
  return undefined;
}
