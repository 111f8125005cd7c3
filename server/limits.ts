/**
 * Bounds on what a request may carry, checked before anything is parsed into records or written:
 * JSON nesting depth, array sizes, string lengths and keys that would poison prototypes.
 */

/** The limits of any JSON a client sends (a whole body, or a JSON field inside it). */
export interface JsonLimits {
  /** Deepest nesting of objects and arrays. */
  depth: number;
  /** Longest string (keys included). */
  string: number;
  /** Most items in one array, or keys in one object. */
  items: number;
}

/** A request body: 1 MB of JSON at most (the body limit), nested at most 32 deep. */
export const BODY_LIMITS: JsonLimits = { depth: 32, string: 200_000, items: 10_000 };
/** A JSON field of a record (a product's images, a chat's messages, a place's details). */
export const FIELD_LIMITS: JsonLimits = { depth: 16, string: 5_000, items: 1_000 };

/**
 * The deepest nesting of JSON text, read without parsing it (strings and escapes skipped), so a
 * body nested thousands deep is refused before JSON.parse walks it. Stops as soon as `limit` is passed.
 */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return deepest;
}

/** The first problem of a parsed JSON value against the limits, as readable text, or null. */
export function jsonProblem(value: unknown, limits: JsonLimits, what = 'The request body'): string | null {
  const walk = (v: unknown, depth: number): string | null => {
    if (typeof v === 'string') return v.length > limits.string ? `${what} holds text longer than ${limits.string} characters` : null;
    if (typeof v !== 'object' || v === null) return null;
    if (depth >= limits.depth) return `${what} is nested too deeply (at most ${limits.depth} levels)`;
    if (Array.isArray(v)) {
      if (v.length > limits.items) return `${what} holds a list longer than ${limits.items} items`;
      for (const item of v) {
        const problem = walk(item, depth + 1);
        if (problem) return problem;
      }
      return null;
    }
    const keys = Object.keys(v);
    if (keys.length > limits.items) return `${what} holds an object with more than ${limits.items} keys`;
    for (const key of keys) {
      const child = (v as Record<string, unknown>)[key];
      if (key === '__proto__' || (key === 'constructor' && typeof child === 'object' && child !== null)) {
        return `${what} uses a reserved name: ${key}`;
      }
      if (key.length > limits.string) return `${what} holds a name longer than ${limits.string} characters`;
      const problem = walk(child, depth + 1);
      if (problem) return problem;
    }
    return null;
  };
  return walk(value, 0);
}
