import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readOggOpus, writeOggOpus } from '../../src/media/ogg-opus.js';
import { clipFile, PROMPTS_DIR } from '../../src/media/prompts.js';

describe('Ogg Opus', () => {
  it('reads back what it wrote, packets across several pages and a packet longer than 255 bytes', () => {
    const packets = Array.from({ length: 120 }, (_, i) => new Uint8Array(i === 7 ? 600 : 40).fill(i));
    const file = writeOggOpus({ packets, preSkip: 312, samples: 120 * 960 - 100, comments: ['TITLE=test'] });
    const read = readOggOpus(file);
    expect(read.preSkip).toBe(312);
    expect(read.comments).toEqual(['TITLE=test']);
    expect(read.packets.map((p) => Buffer.from(p))).toEqual(packets.map((p) => Buffer.from(p)));
  });

  it('refuses a damaged page (its CRC no longer matches)', () => {
    const file = Buffer.from(readFileSync(clipFile(PROMPTS_DIR, 'en', '7')));
    file[file.length - 10] = (file[file.length - 10] ?? 0) ^ 0xff;
    expect(() => readOggOpus(file)).toThrow(/CRC/);
    expect(() => readOggOpus(Buffer.from('not ogg'))).toThrow(/no page/);
  });
});
