import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { ClerkError, errors } from '../../errors.ts';
import { UPLOAD_BODY_LIMIT } from '../../http/body-limits.ts';
import {
  IMAGE_TOO_LARGE,
  imageFromRawBody,
  MAX_IMAGE_BYTES,
  validateImage,
  type ImageFile,
} from '../../images/image-file.ts';
import type { FormBody } from '../form.ts';

/**
 * Image uploads on the Frontend API (`organization.setLogo({file})`, `user.setProfileImage({file})`).
 * clerk-js sends a `File` as multipart/form-data (field `file`) and a string (a data URL) as a raw
 * application/octet-stream body. Both are read before the route's transaction starts; the bytes
 * travel with the request as `ctx.upload`.
 */

export interface Upload {
  data: Buffer;
  /** The multipart part's type; null for a raw body. */
  declaredType: string | null;
  /** The multipart part's file name (shown back as the image's `name`); null for a raw body. */
  filename: string | null;
  raw: boolean;
}

/**
 * Registers the multipart and octet-stream body parsers in the Frontend API's scope only. Other routes
 * refuse these types before reading them (plugin.ts), so only the image routes ever stream this much.
 */
export async function registerUploadParsers(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 20, parts: 21, fieldSize: 64 * 1024 },
  });
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: UPLOAD_BODY_LIMIT },
    (_req, body, done) => done(null, body),
  );
}

/**
 * The form fields and the file of an upload request (multipart, or a raw body with no fields), or null
 * when the request carries no upload and its parsed body is to be used as it is.
 */
export async function readUpload(
  req: FastifyRequest,
): Promise<{ body: FormBody; upload: Upload | null } | null> {
  if (Buffer.isBuffer(req.body))
    return { body: {}, upload: { data: req.body, declaredType: null, filename: null, raw: true } };
  if (!req.isMultipart()) return null;
  // Field names are the request's: no prototype for `__proto__` or `constructor` to reach.
  const body: FormBody = Object.create(null);
  let upload: Upload | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'file' && !upload) {
          upload = { data, declaredType: part.mimetype, filename: part.filename || null, raw: false };
        }
      } else if (typeof part.value === 'string') {
        body[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof ClerkError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw errors.imageInvalid(IMAGE_TOO_LARGE);
    if (code === 'FST_FILES_LIMIT') throw errors.imageInvalid('Upload one image at a time.');
    throw errors.bodyInvalid('The multipart request body could not be read.');
  }
  return { body, upload: upload ?? null };
}

/** The image uploaded with this request, validated by its bytes; a request without one is refused. */
export function uploadedImage(upload: Upload | null): ImageFile {
  if (!upload) throw errors.imageInvalid('Choose an image file to upload.');
  return upload.raw ? imageFromRawBody(upload.data) : validateImage(upload.data, upload.declaredType);
}
