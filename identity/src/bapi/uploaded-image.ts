import type { FastifyRequest } from 'fastify';
import { ClerkError, errors } from '../errors.ts';
import { IMAGE_TOO_LARGE, validateImage, type ImageFile } from '../images/image-file.ts';

/**
 * The image of a Backend API multipart upload (field `file`, as @clerk/backend sends `updateOrganizationLogo`
 * and `updateUserProfileImage`), judged by its bytes; Clerk's 422 when there is none or it is no image.
 */
export async function uploadedImage(raw: FastifyRequest): Promise<ImageFile> {
  if (!raw.isMultipart()) throw errors.imageInvalid('Upload the image as multipart field `file`.');
  let image: ImageFile | undefined;
  try {
    for await (const part of raw.parts()) {
      if (part.type !== 'file') continue;
      const data = await part.toBuffer();
      if (part.fieldname === 'file' && !image) image = validateImage(data, part.mimetype);
    }
  } catch (err) {
    if (err instanceof ClerkError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw errors.imageInvalid(IMAGE_TOO_LARGE);
    throw errors.bodyInvalid('The multipart request body could not be read.');
  }
  if (!image) throw errors.imageInvalid('Choose an image file to upload.');
  return image;
}
