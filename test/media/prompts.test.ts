import OpusScript from 'opusscript';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../src/domain/locales.js';
import { CLIP_NAMES, codeReading, loadPromptSet, promptLanguages } from '../../src/media/prompts.js';
import { recognise } from './support/recognise.js';

/** Decodes packets as a phone would, without the network in between. */
function decode(packets: readonly Uint8Array[]): Int16Array {
  const decoder = new OpusScript(48_000, 1, OpusScript.Application.VOIP);
  const parts = packets.map((p) => {
    const b = decoder.decode(Buffer.from(p));
    return new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  });
  decoder.delete();
  const pcm = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    pcm.set(p, at);
    at += p.length;
  }
  return pcm;
}

describe('code-call prompts', () => {
  it('has every clip for each locale the service writes', () => {
    expect(promptLanguages()).toEqual([...LOCALES].sort());
    for (const language of promptLanguages()) {
      const set = loadPromptSet(language);
      for (const clip of CLIP_NAMES) expect(set.clips[clip].length, `${language}/${clip}`).toBeGreaterThan(5); // 100 ms: Vietnamese "một" is short
    }
  });

  it.each(promptLanguages())(
    'reads the code digit by digit, twice, after the intro and after "again" (%s)',
    (language) => {
      const heard = recognise(decode(codeReading('4815920736', loadPromptSet(language))), language);
      expect(heard.clips.join(' '), language).toBe('intro 4 8 1 5 9 2 0 7 3 6 again 4 8 1 5 9 2 0 7 3 6');
      // The right clip wins clearly over the next best, in every stretch.
      expect(Math.min(...heard.margins), language).toBeGreaterThan(1.2);
    },
  );

  it('hears what was said, not what was meant: a swapped or missing digit shows', () => {
    const set = loadPromptSet('en');
    const reading = codeReading('481592', set);
    // The first "5" replaced by the clip of "3", and the second "9" by silence of the same length.
    const five = set.clips['5'];
    const firstFive = indexOfRun(reading, five);
    const tampered = [...reading];
    tampered.splice(firstFive, five.length, ...set.clips['3']);
    const nine = set.clips['9'];
    const secondNine = indexOfRun(tampered, nine, indexOfRun(tampered, nine) + 1);
    tampered.splice(secondNine, nine.length, ...nine.map(() => set.silence));
    expect(recognise(decode(tampered), 'en').digits).toBe('48139248152');
    expect(recognise(decode(reading), 'en').digits).toBe('481592481592');
  });

  it('refuses to read anything but digits', () => {
    expect(() => codeReading('12a4', loadPromptSet('en'))).toThrow(/digits/);
  });
});

function indexOfRun(haystack: readonly Uint8Array[], run: readonly Uint8Array[], from = 0): number {
  for (let i = from; i + run.length <= haystack.length; i++) {
    if (run.every((p, k) => haystack[i + k] === p)) return i;
  }
  throw new Error('run not found');
}
