import { describe, expect, it } from 'vitest';
import { fitsOneSegment, smsSegments } from '../../src/delivery/sms-segments.js';

/** A deterministic generator, so a failure names a text that fails again. */
function* texts(count: number): Generator<string> {
  const alphabet = [
    'a',
    'Z',
    '0',
    ' ',
    '\n',
    'é',
    'Ñ',
    '€',
    '[',
    '^',
    'ó',
    'ç',
    'Я',
    'ש',
    '中',
    '😀',
    'Δ',
    'ß',
  ];
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  for (let i = 0; i < count; i++) {
    const length = next() % 200;
    // Mostly one kind of character, so both encodings meet their bounds often.
    const main = alphabet[next() % 4] as string;
    let text = '';
    for (let j = 0; j < length; j++)
      text += next() % 10 === 0 ? (alphabet[next() % alphabet.length] as string) : main;
    yield text;
  }
}

describe('fitsOneSegment', () => {
  it('agrees with smsSegments on every text', () => {
    for (const text of texts(20_000)) {
      expect(fitsOneSegment(text), JSON.stringify(text)).toBe(smsSegments(text).segments <= 1);
    }
  });

  it.each([
    ['a'.repeat(160), true],
    ['a'.repeat(161), false],
    ['€'.repeat(80), true],
    [`${'a'.repeat(159)}€`, false],
    [`${'a'.repeat(69)}ó`, true],
    [`${'a'.repeat(70)}ó`, false],
    ['😀'.repeat(35), true],
    ['😀'.repeat(36), false],
  ])('%j: %s', (text, fits) => {
    expect(fitsOneSegment(text)).toBe(fits);
  });
});
