import type { FastifyRequest } from 'fastify';
import { errors } from '../errors.ts';
import { MAX_IMAGE_BYTES } from '../images/image-file.ts';

/**
 * The largest body of a Frontend API form or JSON call. The largest clerk-js sends are
 * `unsafe_metadata` (a value is at most MAX_VALUE_LENGTH, 64 KiB, which %-escaping can triple) and a
 * bulk invitation (at most MAX_FIELDS addresses); both fit.
 */
export const FAPI_BODY_LIMIT = 256 * 1024;
/** The largest Backend API JSON body: metadata and bulk invitations of @clerk/backend, with room. */
export const BAPI_BODY_LIMIT = 1024 * 1024;
/**
 * The largest body of the image uploads, the only routes that take one this big: a raw body can be a
 * data URL of an image within MAX_IMAGE_BYTES (base64 is 4/3), a multipart one the file and its fields.
 */
export const UPLOAD_BODY_LIMIT = Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 64 * 1024;

/**
 * Refuses, from its `Content-Length` and before a byte of it is read, a body larger than the route
 * takes. A body without one (chunked) is cut off at the same limit while it streams, by the parsers.
 */
export function refuseDeclaredOversize(req: FastifyRequest, limit: number): void {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw errors.bodyTooLarge();
}

/** Fastify's own refusal of a body (too large while streaming, unreadable) as a Clerk error. */
export function bodyRefusal(statusCode: number) {
  return statusCode === 413
    ? errors.bodyTooLarge()
    : errors.bodyInvalid('The request body could not be read.');
}
