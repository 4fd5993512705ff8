import { Type } from '@sinclair/typebox';
import type { Schema } from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { components } from '../../src/http/components.js';
import { reachable, sharedSerializerCompiler } from '../../src/http/serializers.js';

const named = (entries: Record<string, unknown>) =>
  new Map(Object.entries(entries) as Array<[string, Schema]>);

describe('reachable', () => {
  const schemas = named({
    Leaf: { type: 'string' },
    Middle: { type: 'object', properties: { leaf: { $ref: 'Leaf' } } },
    Top: { type: 'array', items: { anyOf: [{ $ref: 'Middle#/properties/leaf' }, { $ref: 'Middle' }] } },
    Unrelated: { type: 'object', properties: { x: { $ref: 'Leaf' } } },
  });

  it('gives the named schemas a schema refers to, through one another, and no other', () => {
    expect(Object.keys(reachable({ $ref: 'Top' }, schemas)).sort()).toEqual(['Leaf', 'Middle', 'Top']);
    expect(
      Object.keys(reachable({ type: 'object', properties: { m: { $ref: 'Middle' } } }, schemas)).sort(),
    ).toEqual(['Leaf', 'Middle']);
  });

  it('gives nothing for a schema without references, and ignores references to unknown names', () => {
    expect(reachable({ type: 'object', properties: { a: { type: 'string' } } }, schemas)).toEqual({});
    expect(reachable({ $ref: '#/definitions/local' }, schemas)).toEqual({});
  });

  it('stops on schemas that refer to each other', () => {
    const cyclic = named({ A: { type: 'object', properties: { b: { $ref: 'B' } } }, B: { $ref: 'A' } });
    expect(Object.keys(reachable({ $ref: 'A' }, cyclic)).sort()).toEqual(['A', 'B']);
  });
});

describe('sharedSerializerCompiler', () => {
  it('writes an answer through references to named schemas nested in one another', async () => {
    // The application's schemas register themselves when their modules load.
    await import('../../src/http/schemas.js');
    const compile = sharedSerializerCompiler();
    const error = components().find((s) => s.$id === 'ErrorResponse');
    expect(error).toBeDefined();
    const inline = compile({ schema: Type.Object({ failure: Type.Ref('ErrorResponse') }) });
    const body = { failure: { error: { code: 'VALIDATION_ERROR', message: 'm', details: [] } }, dropped: 1 };
    expect(JSON.parse(inline(body))).toEqual({ failure: body.failure });
    const shared = compile({ schema: { $ref: 'ErrorResponse', description: 'd' } as never });
    expect(compile({ schema: { $ref: 'ErrorResponse' } as never })).toBe(shared);
  });
});
