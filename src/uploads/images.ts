import type { Metadata, Sharp, SharpOptions } from "sharp";
import { ApiError } from "../base/errors.js";

/** Zulip's IMAGE_BOMB_TOTAL_PIXELS: no image whose pixels (all frames together) exceed this is decoded. */
export const IMAGE_BOMB_TOTAL_PIXELS = 90_000_000;
/** Zulip's DEFAULT_AVATAR_SIZE and MEDIUM_AVATAR_SIZE (square PNGs). */
export const AVATAR_SIZE = 100;
export const MEDIUM_AVATAR_SIZE = 500;
/** The box a wide logo is fitted into (Zulip's 8 × DEFAULT_AVATAR_SIZE by DEFAULT_AVATAR_SIZE). */
export const LOGO_WIDTH = 8 * AVATAR_SIZE;
export const LOGO_HEIGHT = AVATAR_SIZE;
/** Zulip's DEFAULT_EMOJI_SIZE (square). */
export const EMOJI_SIZE = 64;

/** Zulip's THUMBNAIL_ACCEPT_IMAGE_TYPES: the declared types an avatar, icon or logo may have. */
export const THUMBNAIL_ACCEPT_IMAGE_TYPES: ReadonlySet<string> = new Set(["image/avif", "image/gif", "image/heic", "image/jpeg", "image/png", "image/tiff", "image/webp"]);

/** The image types uploads are thumbnailed from, by sharp's format name. */
const IMAGE_TYPES: Readonly<Record<string, string>> = {
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  heif: "image/avif",
  tiff: "image/tiff",
};

/** What the header of an image says. */
export interface ImageFacts {
  contentType: string;
  width: number;
  height: number;
  frames: number;
}

/** Zulip's BadImageError. */
export function badImage(msg: string): ApiError {
  return new ApiError(msg, "BAD_IMAGE", 400);
}

type SharpInput = Buffer | string;
let library: Promise<(input: SharpInput, options?: SharpOptions) => Sharp> | undefined;

/**
 * sharp, loaded on the first image: libvips costs about 20 MB of memory, which a server that is
 * never sent an image does not pay.
 */
function sharp(): Promise<(input: SharpInput, options?: SharpOptions) => Sharp> {
  library ??= import("sharp").then(({ default: load }) => {
    // No operation cache (as Zulip sets libvips): each image is read once, and a cache only holds memory.
    load.cache(false);
    return load;
  });
  return library;
}

// Every decode goes through these: no pixel data beyond the bomb limit, no untrusted loaders.
const LOAD = { limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS, failOn: "error" } as const;

/**
 * The type, size and frame count of an image, read from its header (the first bytes of a file
 * are enough), or undefined when the bytes are not an image sharp decodes. Not a decode: cheap.
 */
export async function probeImage(bytes: Buffer | string): Promise<ImageFacts | undefined> {
  // Most uploads are not images: those never load libvips (nor cost a call into it).
  if (Buffer.isBuffer(bytes) && !hasImageSignature(bytes)) return undefined;
  let meta: Metadata;
  try {
    meta = await (await sharp())(bytes, { ...LOAD, limitInputPixels: false }).metadata();
  } catch {
    return undefined;
  }
  const contentType = meta.format === "heif" ? (meta.compression === "av1" ? "image/avif" : undefined) : IMAGE_TYPES[meta.format ?? ""];
  if (contentType === undefined || !meta.width || !meta.height) return undefined;
  const frames = meta.pages ?? 1;
  return { contentType, width: meta.width, height: meta.pageHeight ?? meta.height, frames };
}

/**
 * The type of a received image file, decided from its bytes: clients may declare nothing (the
 * official Python client sends file parts without a Content-Type, which reads as text/plain) or
 * the wrong thing. Bytes that are no image sharp reads fall back to the declared type, so that a
 * declared image that does not decode is refused as Zulip refuses it (it cannot be decoded).
 */
export async function receivedImageType(bytes: Buffer, declared: string): Promise<string> {
  const sniffed = await probeImage(bytes);
  return sniffed?.contentType ?? declared.split(";")[0]?.trim().toLowerCase() ?? "";
}

/** How many first bytes hasImageSignature needs. */
export const IMAGE_SIGNATURE_BYTES = 12;

/**
 * Whether the bytes start as one of the formats IMAGE_TYPES lists does (the signatures libvips'
 * loaders look for): JPEG, PNG, GIF, WebP, TIFF (and BigTIFF), or an ISO media file (HEIF/AVIF).
 */
export function hasImageSignature(bytes: Buffer): boolean {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString("latin1");
  return (
    (bytes[0] === 0xff && bytes[1] === 0xd8) ||
    bytes.subarray(0, 8).equals(PNG_SIGNATURE) ||
    ascii(0, 4) === "GIF8" ||
    (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") ||
    ["II*\0", "MM\0*", "II+\0", "MM\0+"].includes(ascii(0, 4)) ||
    ascii(4, 8) === "ftyp"
  );
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Zulip's libvips_check_image: refuses what does not decode and images over the pixel limit. */
export async function checkImage(bytes: Buffer | string): Promise<ImageFacts> {
  const facts = await probeImage(bytes);
  if (!facts) throw badImage("Could not decode image; did you upload an image file?");
  if (facts.width * facts.height * facts.frames > IMAGE_BOMB_TOTAL_PIXELS) throw badImage("Image size exceeds limit.");
  return facts;
}

/** A square avatar PNG: scaled to cover `size`×`size` and cropped at the centre (Zulip's resize_avatar). */
export async function resizeAvatar(bytes: Buffer, size: number): Promise<Buffer> {
  await checkImage(bytes);
  try {
    return await (await sharp())(bytes, LOAD).rotate().resize(size, size, { fit: "cover", position: "centre" }).png().toBuffer();
  } catch {
    throw badImage("Image is corrupted or truncated");
  }
}

/**
 * An organisation's wide logo as a PNG: scaled down (never up) to fit 800×100, its proportions
 * kept and nothing added (Zulip's resize_logo).
 */
export async function resizeLogo(bytes: Buffer): Promise<Buffer> {
  await checkImage(bytes);
  try {
    return await (await sharp())(bytes, LOAD).rotate().resize(LOGO_WIDTH, LOGO_HEIGHT, { fit: "inside", withoutEnlargement: true }).png().toBuffer();
  } catch {
    throw badImage("Image is corrupted or truncated");
  }
}

/**
 * A custom emoji at 64×64 in its own format (Zulip's resize_emoji), and for an animated one its
 * first frame as a still PNG. Non-square animations are padded, not cropped.
 */
export async function resizeEmoji(bytes: Buffer, format: "png" | "gif" | "jpeg" | "webp" | "avif"): Promise<{ image: Buffer; still: Buffer | undefined }> {
  const facts = await checkImage(bytes);
  const load = await sharp();
  try {
    const still = load(bytes, LOAD).resize(EMOJI_SIZE, EMOJI_SIZE, { fit: "cover", position: "centre" });
    if (facts.frames === 1) return { image: await encode(still, format).toBuffer(), still: undefined };
    const animated = load(bytes, { ...LOAD, animated: true }).resize(EMOJI_SIZE, EMOJI_SIZE, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } });
    return { image: await encode(animated, format).toBuffer(), still: await still.png().toBuffer() };
  } catch {
    throw badImage("Image is corrupted or truncated");
  }
}

function encode(image: Sharp, format: "png" | "gif" | "jpeg" | "webp" | "avif"): Sharp {
  return image.toFormat(format);
}

/** One size and format uploads are thumbnailed into (Zulip's ThumbnailFormat). */
export interface ThumbnailFormat {
  extension: "webp" | "jpg";
  maxWidth: number;
  maxHeight: number;
  animated: boolean;
}

/** A thumbnail as recorded once made (Zulip's StoredThumbnailFormat). */
export interface StoredThumbnail {
  extension: string;
  max_width: number;
  max_height: number;
  animated: boolean;
  content_type: string;
  width: number;
  height: number;
  byte_size: number;
}

/**
 * Zulip 9.0's THUMBNAIL_OUTPUT_FORMATS, in its order: the first still and the first animated
 * format are the ones written into messages.
 */
export const THUMBNAIL_FORMATS: readonly ThumbnailFormat[] = [
  { extension: "webp", maxWidth: 840, maxHeight: 560, animated: true },
  { extension: "webp", maxWidth: 840, maxHeight: 560, animated: false },
  { extension: "webp", maxWidth: 300, maxHeight: 200, animated: true },
  { extension: "webp", maxWidth: 300, maxHeight: 200, animated: false },
  { extension: "jpg", maxWidth: 300, maxHeight: 200, animated: false },
];

/** A format's name, the last part of its URL: `840x560.webp`, `840x560-anim.webp`. */
export function formatName(format: { maxWidth: number; maxHeight: number; animated: boolean; extension: string }): string {
  return `${format.maxWidth}x${format.maxHeight}${format.animated ? "-anim" : ""}.${format.extension}`;
}

/** Reads a format name back, or undefined. */
export function parseFormatName(name: string): ThumbnailFormat | undefined {
  const m = /^(\d+)x(\d+)(-anim)?\.(webp|jpg)$/.exec(name);
  if (!m) return undefined;
  return { maxWidth: Number(m[1]), maxHeight: Number(m[2]), animated: m[3] !== undefined, extension: m[4] === "jpg" ? "jpg" : "webp" };
}

/** The formats to make for an image: animated ones only for animations. */
export function formatsFor(frames: number): ThumbnailFormat[] {
  return THUMBNAIL_FORMATS.filter((f) => !f.animated || frames > 1);
}

/** An image re-encoded as WebP, scaled down (never up) to fit `box`; every frame kept when `animated`, the first otherwise. */
export async function reencodeImage(input: Buffer, box: { width: number; height: number }, animated: boolean): Promise<Buffer> {
  const load = await sharp();
  return load(input, { ...LOAD, animated }).resize(box.width, box.height, { fit: "inside", withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
}

/**
 * Makes the thumbnails of one image, largest box first: each still format is scaled from the
 * largest still one's pixels rather than from the original, so a big photo is decoded once (with
 * shrink-on-load) instead of once per format.
 */
export async function makeThumbnails(input: Buffer | string, formats: readonly ThumbnailFormat[]): Promise<{ format: ThumbnailFormat; data: Buffer; stored: StoredThumbnail }[]> {
  const load = await sharp();
  const out: { format: ThumbnailFormat; data: Buffer; stored: StoredThumbnail }[] = [];
  const stills = formats.filter((f) => !f.animated);
  const largest = stills.reduce<ThumbnailFormat | undefined>((a, b) => (a && a.maxWidth * a.maxHeight >= b.maxWidth * b.maxHeight ? a : b), undefined);
  // The largest still box's pixels, decoded once and kept raw (no encode and decode between formats).
  const pixels = largest
    ? await load(input, LOAD).resize(largest.maxWidth, largest.maxHeight, { fit: "inside", withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true })
    : undefined;
  for (const format of formats) {
    const image =
      !format.animated && pixels
        ? load(pixels.data, { raw: { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels } })
        : load(input, { ...LOAD, animated: format.animated });
    out.push({ format, ...(await makeThumbnail(image, format)) });
  }
  return out;
}

/**
 * Makes one thumbnail: scaled down (never up) to fit the format's box, all frames kept for an
 * animated format, the first frame only otherwise.
 */
async function makeThumbnail(source: Sharp, format: ThumbnailFormat): Promise<{ data: Buffer; stored: StoredThumbnail }> {
  const image = source.resize(format.maxWidth, format.maxHeight, { fit: "inside", withoutEnlargement: true });
  const encoded = format.extension === "jpg" ? image.flatten({ background: "#ffffff" }).jpeg({ quality: 80 }) : image.webp({ quality: 80 });
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  const height = info.pageHeight ?? info.height;
  return {
    data,
    stored: {
      extension: format.extension,
      max_width: format.maxWidth,
      max_height: format.maxHeight,
      animated: format.animated,
      content_type: format.extension === "jpg" ? "image/jpeg" : "image/webp",
      width: info.width,
      height,
      byte_size: data.length,
    },
  };
}
