import { type TSchema, Type } from '@sinclair/typebox';
import { component } from './components.js';
import { validationError } from './errors.js';

/**
 * Cursor paging of the admin API's lists: `limit` (1–500, default 50) and `cursor`, the
 * `nextCursor` of the page before; every page answers `nextCursor`, null on the last one. A cursor
 * is opaque to the caller (the position of the last row, base64url), so a row added at the top
 * while an operator pages never shifts the next page as an offset would.
 */

export const PageLimit = Type.Optional(
  Type.String({ pattern: '^[0-9]{1,3}$', description: 'Rows per page: at most 500; default 50.' }),
);

export const PageCursor = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 512,
    pattern: '^[A-Za-z0-9_-]+$',
    description: 'The `nextCursor` of the previous page; absent: the first page.',
  }),
);

/** `{data: [item], nextCursor}`, named. */
export const pagedEnvelope = (name: string, item: TSchema, description: string) =>
  component(
    name,
    Type.Object({
      data: Type.Array(item, { description }),
      nextCursor: Type.Union([Type.String(), Type.Null()], {
        description: 'Pass it as `cursor` for the next page; null: this is the last page.',
      }),
    }),
  );

export const pageLimit = (text: string | undefined) => Math.min(500, Math.max(1, Number(text ?? 50)));

const encode = (position: Array<string | number>) =>
  Buffer.from(JSON.stringify(position)).toString('base64url');

/**
 * The position a cursor carries, checked against `shape` (the types of its parts, in order);
 * a cursor of another list, edited or cut answers 400 VALIDATION_ERROR.
 */
export function readCursor<const S extends ReadonlyArray<'string' | 'number'>>(
  cursor: string | undefined,
  shape: S,
): { [K in keyof S]: S[K] extends 'number' ? number : string } | undefined {
  if (cursor === undefined) return undefined;
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    position = undefined;
  }
  const fits =
    Array.isArray(position) &&
    position.length === shape.length &&
    position.every(
      (part, i) => typeof part === shape[i] && (typeof part !== 'number' || Number.isSafeInteger(part)),
    );
  if (!fits)
    throw validationError([
      {
        field: 'cursor',
        message: 'cursor is not one this list gave: pass the nextCursor of the previous page',
      },
    ]);
  return position as { [K in keyof S]: S[K] extends 'number' ? number : string };
}

/**
 * One page of `rows` read with `limit + 1`: the extra row only says there is a next page, which
 * starts after the last row kept.
 */
export function page<T>(
  rows: T[],
  limit: number,
  positionOf: (last: T) => Array<string | number>,
): { data: T[]; nextCursor: string | null } {
  if (rows.length <= limit) return { data: rows, nextCursor: null };
  const data = rows.slice(0, limit);
  return { data, nextCursor: encode(positionOf(data[data.length - 1] as T)) };
}
