import { errors } from '../errors.ts';

/**
 * Uploaded images (organisation logos, profile images): PNG, JPEG, GIF or WebP up to 10 MiB, typed by
 * their bytes. What the client claims (file name, part type) is never what we serve.
 */

export interface ImageFile {
  data: Buffer;
  type: string;
}

/** Clerk's uploader allows 10 MB; ours is a little more generous (MiB) so its files always fit. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
const TYPES_TEXT = 'PNG, JPEG, GIF or WebP';
export const IMAGE_TOO_LARGE = `The image must be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`;

/** The image type read from the magic bytes. */
export function sniffImageType(data: Buffer): (typeof IMAGE_TYPES)[number] | null {
  const ascii = (start: number, end: number) => data.subarray(start, end).toString('latin1');
  if (
    data.length >= 8 &&
    data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return 'image/png';
  }
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 6 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) return 'image/gif';
  if (data.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/**
 * An image as uploaded: `declaredType` is the multipart part's type or a data URL's, null for raw
 * bytes. A declared type other than an image type is refused even if the bytes are an image.
 */
export function validateImage(data: Buffer, declaredType: string | null): ImageFile {
  if (!data.length) throw errors.imageInvalid('The image file is empty.');
  if (data.length > MAX_IMAGE_BYTES) throw errors.imageInvalid(IMAGE_TOO_LARGE);
  const declared = declaredType?.split(';')[0]!.trim().toLowerCase();
  if (
    declared &&
    declared !== 'application/octet-stream' &&
    !(IMAGE_TYPES as readonly string[]).includes(declared)
  ) {
    throw errors.imageInvalid(`The image must be a ${TYPES_TEXT} file.`);
  }
  const type = sniffImageType(data);
  if (!type) throw errors.imageInvalid(`The image must be a ${TYPES_TEXT} file.`);
  return { data, type };
}

/**
 * clerk-js's `setLogo({file})` / `setProfileImage({file})` send a string as the raw body
 * (octet-stream): a data URL (`data:image/png;base64,…`) or plain base64. Raw image bytes are accepted too.
 */
export function imageFromRawBody(body: Buffer): ImageFile {
  const text = body.toString('latin1').trim();
  // data:[<type>][;<param>…][;base64],<data>
  const dataUrl = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(text);
  if (dataUrl) {
    let payload: Buffer;
    try {
      payload = /;base64$/i.test(dataUrl[2]!)
        ? Buffer.from(dataUrl[3]!, 'base64')
        : Buffer.from(decodeURIComponent(dataUrl[3]!), 'latin1');
    } catch {
      throw errors.imageInvalid('The image data URL could not be read.');
    }
    return validateImage(payload, dataUrl[1] || null);
  }
  if (!sniffImageType(body) && /^[A-Za-z0-9+/=\s_-]+$/.test(text)) {
    return validateImage(Buffer.from(text, 'base64'), null);
  }
  return validateImage(body, null);
}
