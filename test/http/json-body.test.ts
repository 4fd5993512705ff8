import { describe, expect, it } from 'vitest';
import { callbackHttp } from '../../src/http/callback-http.js';
import { jsonBodyProblem } from '../../src/http/json-body.js';

const problem = (text: string) => jsonBodyProblem(text, JSON.parse(text));
const fields = (text: string) => problem(text)?.details?.map((d) => d.field);

/** A small seeded generator, so a failure can be replayed. */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}
const PIECES = ['a', '"', '\\', ':', ',', '{', '}', '[', ']', ' ', 'é', '👍', '\n', '\\"', 'x:y'];
function randomValue(next: () => number, depth = 0): unknown {
  const pick = Math.floor(next() * (depth > 5 ? 4 : 6));
  const text = () =>
    Array.from({ length: Math.floor(next() * 6) }, () => PIECES[Math.floor(next() * PIECES.length)]).join('');
  if (pick === 0) return null;
  if (pick === 1) return Math.floor(next() * 1000) - 500;
  if (pick === 2) return next() < 0.5;
  if (pick === 3) return text();
  if (pick === 4) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  const out: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 5); i > 0; i--) out[text()] = randomValue(next, depth + 1);
  return out;
}

describe('jsonBodyProblem', () => {
  it('takes JSON whose names are unique and whose strings are text, however strings are escaped', () => {
    for (const text of [
      '{}',
      '[]',
      '"plain"',
      '7',
      '{"a":"b:c","d":"\\"e\\":f"}',
      '{"ends with a backslash\\\\":"\\\\","x":"\\\\\\"y"}',
      '{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}',
      '{"emoji":"\\ud83d\\udc4d","raw":"👍","key👍":1}',
      ' { "spaced" : 1 , "out" : [ 1 , { "in" : 2 } ] } ',
    ])
      expect(problem(text), text).toBeNull();
  });

  it('takes 2,000 random values as JSON.stringify writes them (names are unique there by construction)', () => {
    const next = rng(44);
    for (let i = 0; i < 2000; i++) {
      const text = JSON.stringify(randomValue(next));
      expect(problem(text), text).toBeNull();
    }
  });

  it('names every repeated member, at any depth, however its name is written', () => {
    expect(fields('{"channel":"SMS","channel":"EMAIL"}')).toEqual(['channel']);
    expect(fields('{"a":1,"\\u0061":2}')).toEqual(['a']);
    expect(fields('{"x":{"y":[0,{"z":1,"z":2}]},"w":1,"w":2}')).toEqual(['x.y[1].z', 'w']);
    expect(fields('[{"a":1},{"a":1,"a":1,"a":1}]')).toEqual(['[1].a', '[1].a']);
    expect(problem('{"a":1,"a":2}')?.code).toBe('VALIDATION_ERROR');
  });

  it('names every string and member name that holds a lone surrogate; a pair is text', () => {
    expect(fields('{"a":"\\ud800","b":["ok","\\udfff"],"c":"\\ud83d\\udc4d"}')).toEqual(['a', 'b[1]']);
    expect(fields('{"\\udc00x":1}')).toEqual(['\ufffdx']);
    expect(fields('"\\ud800"')).toEqual(['body']);
    expect(fields('{"a":"\\udc00\\ud800"}')).toEqual(['a']);
    expect(problem('{"a":"\\ud800"}')?.details?.[0]?.message).toMatch(/lone surrogate/);
  });

  it('refuses nesting deeper than 32 levels before anything else', () => {
    const deep = `${'['.repeat(33)}${']'.repeat(33)}`;
    expect(problem(deep)?.details).toEqual([
      { field: 'body', message: expect.stringMatching(/deeper than 32/) },
    ]);
    expect(problem(`${'['.repeat(32)}${']'.repeat(32)}`)).toBeNull();
  });

  it('holds the providers’ callbacks to the same rules', () => {
    expect(() => callbackHttp.parseJson('{"status":"delivered","status":"failed"}')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR' }),
    );
    expect(() => callbackHttp.parseJson('{"error":"\\ud800"}')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR' }),
    );
    expect(callbackHttp.parseJson('{"status":"delivered"}')).toEqual({ status: 'delivered' });
  });
});
