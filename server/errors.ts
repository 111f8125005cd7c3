/** An answer that is not a success: an HTTP status and the readable `query` text of the envelope. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Headers the answer carries (Retry-After on a 429). */
    readonly headers: Record<string, string> = {},
    /** What the envelope's `detail` carries (the second factors a sign-in needs). */
    readonly detail: unknown = null,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = 'Please sign in to continue') => new ApiError(401, message);
export const forbidden = (message = 'You are not allowed to do this') => new ApiError(403, message);
export const notFound = (message = 'Record not found') => new ApiError(404, message);
export const unsupported = (message: string) => new ApiError(415, message);
export const tooLarge = (message: string) => new ApiError(413, message);
export const conflict = (message: string) => new ApiError(409, message);
