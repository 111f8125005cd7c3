/** Bounds on what a request may carry (server/limits.ts): each limit taken at its value and refused one past it. */
import { describe, expect, it } from 'vitest';
import { BODY_LIMITS, FIELD_LIMITS, jsonDepth, jsonProblem } from '../../server/limits';

const nested = (depth: number, inner = '') => '['.repeat(depth) + inner + ']'.repeat(depth);
const limits = { depth: 3, string: 5, items: 2 };

describe('jsonDepth: nesting read from the text', () => {
  it('counts objects and arrays, skips strings and their escapes', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth(nested(3))).toBe(3);
    expect(jsonDepth('{"a":[{}],"b":[]}')).toBe(3);
    expect(jsonDepth('["[[[{{{"]')).toBe(1);
    expect(jsonDepth('["\\"[[[", [1]]')).toBe(2);
    expect(jsonDepth('["\\\\", [[1]]]')).toBe(3);
    expect(jsonDepth('[[1],[2],[3]]')).toBe(2);
    expect(jsonDepth('[{},{},{}]')).toBe(2);
    expect(jsonDepth('{"a":{},"b":{},"c":{}}')).toBe(2);
  });
  it('stops as soon as the limit is passed', () => {
    expect(jsonDepth(nested(40), BODY_LIMITS.depth)).toBe(BODY_LIMITS.depth + 1);
    expect(jsonDepth(nested(BODY_LIMITS.depth), BODY_LIMITS.depth)).toBe(BODY_LIMITS.depth);
  });
});

describe('jsonProblem: a parsed value against the limits', () => {
  it('takes the deepest allowed nesting and refuses one more level', () => {
    expect(jsonProblem(JSON.parse(nested(3)), limits)).toBeNull();
    expect(jsonProblem(JSON.parse(nested(4)), limits, 'chats')).toBe('chats is nested too deeply (at most 3 levels)');
    expect(jsonProblem({ a: { b: { c: 1 } } }, limits)).toBeNull();
    expect(jsonProblem({ a: { b: { c: {} } } }, limits)).toBe('The request body is nested too deeply (at most 3 levels)');
    expect(jsonProblem(JSON.parse(nested(FIELD_LIMITS.depth)), FIELD_LIMITS)).toBeNull();
    expect(jsonProblem(JSON.parse(nested(FIELD_LIMITS.depth + 1)), FIELD_LIMITS)).toBe('The request body is nested too deeply (at most 16 levels)');
  });
  it('takes lists and objects of the most items allowed, refuses one more', () => {
    expect(jsonProblem([1, 2], limits)).toBeNull();
    expect(jsonProblem([1, 2, 3], limits)).toBe('The request body holds a list longer than 2 items');
    expect(jsonProblem({ a: 1, b: 2 }, limits)).toBeNull();
    expect(jsonProblem({ a: 1, b: 2, c: 3 }, limits)).toBe('The request body holds an object with more than 2 keys');
  });
  it('takes texts and names of the longest length allowed, refuses one more, wherever they are', () => {
    expect(jsonProblem(['abcde'], limits)).toBeNull();
    expect(jsonProblem([['abcdef']], limits)).toBe('The request body holds text longer than 5 characters');
    expect(jsonProblem({ a: ['ok', 'abcdef'] }, limits)).toBe('The request body holds text longer than 5 characters');
    expect(jsonProblem({ abcde: 1 }, limits)).toBeNull();
    expect(jsonProblem({ abcdef: 1 }, limits)).toBe('The request body holds a name longer than 5 characters');
    expect(jsonProblem('abcdef', limits)).toBe('The request body holds text longer than 5 characters');
  });
  it('refuses names that would poison prototypes; a plain constructor value is fine', () => {
    const wide = { ...limits, string: 20 };
    expect(jsonProblem(JSON.parse('{"__proto__":1}'), wide)).toBe('The request body uses a reserved name: __proto__');
    expect(jsonProblem({ a: JSON.parse('{"constructor":{"x":1}}') }, wide)).toBe('The request body uses a reserved name: constructor');
    expect(jsonProblem({ constructor: 'text' }, wide)).toBeNull();
    expect(jsonProblem({ constructor: null }, wide)).toBeNull();
  });
  it('finds a problem after a fine item, and passes numbers, booleans and null', () => {
    expect(jsonProblem([1, [[[]]]], limits)).toBe('The request body is nested too deeply (at most 3 levels)');
    expect(jsonProblem({ a: 1, b: [[[]]] }, limits)).toBe('The request body is nested too deeply (at most 3 levels)');
    expect(jsonProblem([1, true], limits)).toBeNull();
    expect(jsonProblem(null, limits)).toBeNull();
  });
});
