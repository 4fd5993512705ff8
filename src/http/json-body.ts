import { type JSONPath, visit } from 'jsonc-parser';
import { ApiError, type ErrorDetail } from './errors.js';

/**
 * What a JSON body may be beyond JSON's grammar: I-JSON (RFC 7493), which RFC 8259 leaves open.
 * An object may name a member once (JSON.parse keeps the last of two silently, so a body could say
 * `"channel":"SMS"` and mean EMAIL), a string or a name may not hold a lone surrogate (no UTF-8 can
 * carry it: PostgreSQL's JSON type refuses it with an error, SQLite would store bytes that are not
 * UTF-8), and arrays and objects may not nest deeper than MAX_JSON_DEPTH. Every JSON body is held
 * to it once parsed (the app's parser, and the providers' callbacks), before anything else reads it.
 */

/** Arrays and objects nested deeper than this in a JSON body are refused (400 VALIDATION_ERROR). */
export const MAX_JSON_DEPTH = 32;

/** At most this many problems are named in one answer. */
const MAX_DETAILS = 20;

interface Walked {
  /** Nested deeper than the limit (the walk stops there). */
  tooDeep: boolean;
  /** Members of every object: fewer than the text names when a name was repeated. */
  members: number;
  /** A string or a member name holds a lone surrogate. */
  illFormed: boolean;
}

/**
 * One pass over a parsed value. An explicit stack rather than recursion: a body of 16 KiB can nest
 * 8,000 levels, more than the call stack of anything that walks it recursively (a 500).
 */
function walk(value: unknown, max: number): Walked {
  if (value === null || typeof value !== 'object')
    return { tooDeep: false, members: 0, illFormed: typeof value === 'string' && !value.isWellFormed() };
  let members = 0;
  let illFormed = false;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop() as Record<string, unknown>;
    const level = depths.pop() as number;
    if (level > max) return { tooDeep: true, members, illFormed };
    const childLevel = level + 1;
    // Strings are checked where they are met, objects and arrays stacked: one loop per node.
    if (Array.isArray(node)) {
      for (const child of node) {
        if (typeof child === 'string') {
          if (!child.isWellFormed()) illFormed = true;
        } else if (child !== null && typeof child === 'object') {
          nodes.push(child);
          depths.push(childLevel);
        }
      }
      continue;
    }
    for (const key in node) {
      members++;
      if (!key.isWellFormed()) illFormed = true;
      const child = node[key];
      if (typeof child === 'string') {
        if (!child.isWellFormed()) illFormed = true;
      } else if (child !== null && typeof child === 'object') {
        nodes.push(child);
        depths.push(childLevel);
      }
    }
  }
  return { tooDeep: false, members, illFormed };
}

/**
 * How many member names a JSON text holds: its colons outside strings (the text already parsed,
 * so every quote outside a string opens one). Strings are skipped with indexOf; a body of a few
 * hundred bytes takes well under a microsecond.
 */
function membersInText(text: string): number {
  let members = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let close = text.indexOf('"', i + 1);
      // A quote is escaped when an odd number of backslashes stands before it.
      for (;;) {
        let b = close - 1;
        while (text.charCodeAt(b) === 0x5c) b--;
        if ((close - 1 - b) % 2 === 0) break;
        close = text.indexOf('"', close + 1);
      }
      i = close;
    } else if (c === 0x3a) {
      members++;
    }
  }
  return members;
}

/** `branding.templates[0].x`, as the other checks name fields; a lone surrogate shown as U+FFFD. */
function fieldOf(path: JSONPath): string {
  let field = '';
  for (const part of path) {
    if (typeof part === 'number') field += `[${part}]`;
    else field += field === '' ? part.toWellFormed() : `.${part.toWellFormed()}`;
  }
  return field || 'body';
}

/** The slow path, taken only when a problem is certain: each repeated name and lone surrogate, named. */
function namedProblems(text: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const names: Array<Set<string>> = [];
  const loneSurrogate = (field: string) => ({
    field,
    message: `${field} holds a lone surrogate (a \\ud800-\\udfff escape without its pair), which is not text`,
  });
  visit(text, {
    onObjectBegin: () => {
      names.push(new Set());
    },
    onObjectEnd: () => {
      names.pop();
    },
    onObjectProperty: (name, _offset, _length, _line, _column, pathOf) => {
      const field = fieldOf([...pathOf(), name]);
      const seen = names[names.length - 1];
      if (!name.isWellFormed()) details.push(loneSurrogate(field));
      else if (seen?.has(name))
        details.push({ field, message: `${field} appears more than once in its object` });
      seen?.add(name);
    },
    onLiteralValue: (value, _offset, _length, _line, _column, pathOf) => {
      if (typeof value === 'string' && !value.isWellFormed()) details.push(loneSurrogate(fieldOf(pathOf())));
    },
  });
  return details.slice(0, MAX_DETAILS);
}

/**
 * Why a parsed JSON body is refused (400 VALIDATION_ERROR naming each field), or null. `text` is
 * the body as received and `value` what JSON.parse made of it.
 */
export function jsonBodyProblem(text: string, value: unknown): ApiError | null {
  const walked = walk(value, MAX_JSON_DEPTH);
  if (walked.tooDeep) return tooDeep();
  if (!walked.illFormed && membersInText(text) === walked.members) return null;
  const details = namedProblems(text);
  return new ApiError(
    'VALIDATION_ERROR',
    'The body is JSON this service does not take: each member name once per object, and no lone surrogate in a string (I-JSON, RFC 7493).',
    details.length > 0 ? details : [{ field: 'body', message: 'the body repeats a member name' }],
  );
}

/** Whether `value` nests arrays and objects more than `max` levels deep (`[]` is one level). */
export function nestsDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  return walk(value, max).tooDeep;
}

/** The refusal of a body nested deeper than MAX_JSON_DEPTH. */
export const tooDeep = (): ApiError =>
  new ApiError(
    'VALIDATION_ERROR',
    `The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
    [{ field: 'body', message: `JSON nesting deeper than ${MAX_JSON_DEPTH} levels is refused` }],
  );
