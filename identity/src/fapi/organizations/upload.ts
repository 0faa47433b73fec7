import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { ClerkError, errors } from '../../errors.ts';
import { logoFromRawBody, MAX_LOGO_BYTES, validateLogo } from '../../organizations/organizations.ts';
import type { OrganizationImage } from '../../store/organizations.ts';
import type { FormBody } from '../form.ts';

/**
 * Image uploads on the Frontend API. clerk-js's `organization.setLogo({file})` sends a `File` as
 * multipart/form-data (field `file`) and a string (a data URL) as a raw application/octet-stream body.
 * Both are read before the route's transaction starts; the bytes travel with the request's form body.
 */

export interface Upload {
  data: Buffer;
  /** The multipart part's type; null for a raw body. */
  declaredType: string | null;
  raw: boolean;
}

/** A raw body somewhat over the limit can still be a data URL of an image within it (base64 is 4/3). */
const RAW_BODY_LIMIT = Math.ceil((MAX_LOGO_BYTES * 4) / 3) + 1024;

/** Registers the multipart and octet-stream body parsers in the Frontend API's scope only. */
export async function registerUploadParsers(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: MAX_LOGO_BYTES, files: 1, fields: 20, parts: 21, fieldSize: 64 * 1024 },
  });
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: RAW_BODY_LIMIT },
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
    return { body: {}, upload: { data: req.body, declaredType: null, raw: true } };
  if (!req.isMultipart()) return null;
  const body: FormBody = {};
  let upload: Upload | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'file' && !upload) upload = { data, declaredType: part.mimetype, raw: false };
      } else if (typeof part.value === 'string') {
        body[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof ClerkError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw errors.organizationLogoInvalid(`The image must be at most ${MAX_LOGO_BYTES / 1024 / 1024} MB.`);
    }
    if (code === 'FST_FILES_LIMIT') throw errors.organizationLogoInvalid('Upload one image at a time.');
    throw errors.bodyInvalid('The multipart request body could not be read.');
  }
  return { body, upload: upload ?? null };
}

/** The image uploaded with this request, validated; a request without one is the logo's error. */
export function uploadedImage(upload: Upload | null): OrganizationImage {
  if (!upload) throw errors.organizationLogoInvalid('Choose an image file to upload.');
  return upload.raw ? logoFromRawBody(upload.data) : validateLogo(upload.data, upload.declaredType);
}
