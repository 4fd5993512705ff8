/**
 * Ogg Opus (RFC 7845), as far as prompt clips need it: one mono stream, packets of 20 ms. The
 * prompts are committed in this format so that any player can open them (`play 3.opus`), and a
 * call sends their packets as they are, without encoding anything.
 */

/** One Ogg Opus stream: its packets and what its header says. */
export interface OggOpus {
  /** Samples (at 48 kHz) the decoder discards at the start: the encoder's lookahead. */
  preSkip: number;
  /** The audio packets, in order (the OpusHead and OpusTags packets are not among them). */
  packets: Uint8Array[];
  /** The comments of OpusTags (`TITLE=…`). */
  comments: string[];
}

const CAPTURE = Buffer.from('OggS', 'latin1');
const HEAD = Buffer.from('OpusHead', 'latin1');
const TAGS = Buffer.from('OpusTags', 'latin1');
/** Audio packets per page: about one second of 20 ms packets, so a page is small and the overhead too. */
const PACKETS_PER_PAGE = 50;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let k = 0; k < 8; k++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** Ogg's CRC-32: polynomial 0x04c11db7, not reflected, initial value 0, no final xor. */
function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ b) & 0xff] ?? 0)) >>> 0;
  return crc;
}

function page(flags: number, granule: bigint, serial: number, sequence: number, packets: Uint8Array[]) {
  const lacing: number[] = [];
  for (const p of packets) {
    for (let left = p.length; ; left -= 255) {
      lacing.push(Math.min(left, 255));
      if (left < 255) break;
    }
  }
  if (lacing.length > 255) throw new Error('Ogg page: more than 255 segments');
  const header = Buffer.alloc(27 + lacing.length);
  CAPTURE.copy(header, 0);
  header[4] = 0;
  header[5] = flags;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(serial, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = lacing.length;
  Buffer.from(lacing).copy(header, 27);
  const bytes = Buffer.concat([header, ...packets]);
  bytes.writeUInt32LE(oggCrc(bytes), 22);
  return bytes;
}

/**
 * Writes mono Opus packets of 20 ms as an Ogg Opus file. `samples` is the clip's length at 48 kHz
 * (without pre-skip): the last page's granule position trims the padding of the last packet.
 */
export function writeOggOpus(input: {
  packets: Uint8Array[];
  preSkip: number;
  samples: number;
  comments?: string[];
  serial?: number;
}): Buffer {
  const serial = input.serial ?? 0x636f6465;
  const head = Buffer.alloc(19);
  HEAD.copy(head, 0);
  head[8] = 1;
  head[9] = 1;
  head.writeUInt16LE(input.preSkip, 10);
  head.writeUInt32LE(48_000, 12);
  const vendor = Buffer.from('contact-verify prompts', 'utf8');
  const comments = (input.comments ?? []).map((c) => Buffer.from(c, 'utf8'));
  const tags = Buffer.concat([
    TAGS,
    u32(vendor.length),
    vendor,
    u32(comments.length),
    ...comments.flatMap((c) => [u32(c.length), c]),
  ]);
  const pages = [page(0x02, 0n, serial, 0, [head]), page(0, 0n, serial, 1, [tags])];
  const end = BigInt(input.preSkip + input.samples);
  for (let i = 0; i < input.packets.length; i += PACKETS_PER_PAGE) {
    const chunk = input.packets.slice(i, i + PACKETS_PER_PAGE);
    const last = i + PACKETS_PER_PAGE >= input.packets.length;
    const granule = last ? end : BigInt(input.preSkip + (i + chunk.length) * 960);
    pages.push(page(last ? 0x04 : 0, granule, serial, pages.length, chunk));
  }
  return Buffer.concat(pages);
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n, 0);
  return b;
};

/** Reads an Ogg Opus file of one logical stream, checking each page's CRC. */
export function readOggOpus(file: Uint8Array): OggOpus {
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const packets: Uint8Array[] = [];
  let partial: Buffer[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    if (bytes.length < offset + 27 || !bytes.subarray(offset, offset + 4).equals(CAPTURE)) {
      throw new Error(`Ogg Opus: no page at byte ${offset}`);
    }
    const count = bytes[offset + 26] ?? 0;
    const lacing = bytes.subarray(offset + 27, offset + 27 + count);
    const dataLength = lacing.reduce((sum, n) => sum + n, 0);
    const end = offset + 27 + count + dataLength;
    if (end > bytes.length) throw new Error(`Ogg Opus: page at byte ${offset} is cut short`);
    const copy = Buffer.from(bytes.subarray(offset, end));
    const crc = copy.readUInt32LE(22);
    copy.writeUInt32LE(0, 22);
    if (oggCrc(copy) !== crc) throw new Error(`Ogg Opus: bad CRC in the page at byte ${offset}`);
    let at = offset + 27 + count;
    for (const n of lacing) {
      partial.push(bytes.subarray(at, at + n));
      at += n;
      if (n < 255) {
        packets.push(new Uint8Array(Buffer.concat(partial)));
        partial = [];
      }
    }
    offset = end;
  }
  const [head, tags, ...audio] = packets;
  if (
    !head ||
    !Buffer.from(head.subarray(0, 8)).equals(HEAD) ||
    !tags ||
    !Buffer.from(tags.subarray(0, 8)).equals(TAGS)
  ) {
    throw new Error('Ogg Opus: the stream does not start with OpusHead and OpusTags');
  }
  if (head[9] !== 1) throw new Error('Ogg Opus: prompts are mono');
  return {
    preSkip: Buffer.from(head).readUInt16LE(10),
    packets: audio,
    comments: readComments(Buffer.from(tags)),
  };
}

function readComments(tags: Buffer): string[] {
  let at = 8;
  at += 4 + tags.readUInt32LE(at);
  const count = tags.readUInt32LE(at);
  at += 4;
  const comments: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = tags.readUInt32LE(at);
    comments.push(tags.toString('utf8', at + 4, at + 4 + length));
    at += 4 + length;
  }
  return comments;
}
