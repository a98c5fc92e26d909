// Image transformations as storage-api serves them (supabase/storage src/http/routes/render/*.ts,
// src/http/schemas/transformations.ts, src/storage/renderer/image.ts, renderer.ts), with the resizing
// imgproxy does behind it in the CLI's local stack (imgproxy's `fill`, `fit` and `force` resizing
// types, no enlargement, EXIF auto-rotation, WebP when the Accept header allows it) done here by
// sharp (libvips, the library imgproxy is built on) instead of a separate imgproxy service.
//
// The three routes authorise like their object counterparts: `authenticated` reads the object as the
// requester (RLS on storage.objects), `public` only from a public bucket, `sign` with a download token
// whose `transformations` claim says what to render.
import type { ServerResponse } from 'node:http';
import { buffer } from 'node:stream/consumers';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { type Call, type StorageService } from './context.ts';
import { errors, StorageError } from './errors.ts';
import { downloadParam, findObject, objectForRead } from './objects.ts';
import { attachmentDisposition, sendResourceMissing, type StoredMetadata, stringOr } from './serve.ts';
import { verifyToken } from './signed-urls.ts';
import {
  clamp,
  fromQuery,
  resizingType,
  type TransformOptions,
  transformationSegments,
  transformationsOfToken,
} from './transformations.ts';

// The CLI's imgproxy: IMGPROXY_MAX_SRC_FILE_SIZE=25000000, IMGPROXY_MAX_SRC_RESOLUTION=50 (megapixels),
// IMGPROXY_MAX_ANIMATION_FRAMES=60; imgproxy's default quality is 80.
const MAX_SOURCE_BYTES = 25_000_000;
const MAX_SOURCE_PIXELS = 50_000_000;
const MAX_ANIMATION_FRAMES = 60;
const DEFAULT_QUALITY = 80;

// A development server: no operation cache growing with every distinct image rendered.
sharp.cache(false);
// Rendering ----------------------------------------------------------------------------------------

/** storage-api's answers to what imgproxy refuses about a source image (image.ts). */
const badSource = () => errors.invalidRequest('The source image is invalid or unsupported for rendering');
const tooManyPixels = () => errors.invalidRequest('The source image resolution is too large to process');
const tooLarge = () => errors.invalidRequest('The source image file is too large to process');

type OutputFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif' | 'tiff';

const MIME: Record<OutputFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  tiff: 'image/tiff',
};

/** The source formats imgproxy reads that this renderer reads too (sharp's names). */
const SOURCE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif']);

/**
 * imgproxy's choice of output: the requested format; otherwise WebP when the client accepts it
 * (IMGPROXY_ENABLE_WEBP_DETECTION, which the CLI sets; storage-api forwards Accept unless the format is
 * `origin`); otherwise the source's own format.
 */
function outputFormat(options: TransformOptions, accept: string | undefined, source: Metadata): OutputFormat {
  if (options.format === 'webp' || options.format === 'avif') return options.format;
  if (options.format !== 'origin' && accept?.includes('image/webp')) return 'webp';
  if (source.format === 'heif') return source.compression === 'av1' ? 'avif' : 'jpeg';
  return source.format as OutputFormat;
}

function encode(pipeline: Sharp, format: OutputFormat, quality: number): Sharp {
  switch (format) {
    case 'jpeg':
      return pipeline.jpeg({ quality });
    case 'webp':
      return pipeline.webp({ quality });
    case 'avif':
      return pipeline.avif({ quality });
    case 'tiff':
      return pipeline.tiff({ quality });
    case 'png':
      return pipeline.png();
    case 'gif':
      return pipeline.gif();
  }
}

const FIT = { fill: 'cover', fit: 'inside', force: 'fill' } as const;

/**
 * imgproxy's resize (never enlarging): `fit` inside the box, `force` to it, `fill` covering it and
 * cropped where the gravity says (centred by default; `sm` is libvips' attention-based smart crop;
 * an animation is always cropped about its centre).
 */
function resize(
  pipeline: Sharp,
  options: TransformOptions,
  source: { width: number; height: number },
  animated: boolean,
): Sharp {
  if (!options.width && !options.height) return pipeline;
  const width = options.width ? clamp(options.width) : undefined;
  const height = options.height ? clamp(options.height) : undefined;
  const type = resizingType(options.resize);
  const gravity = options.gravity;
  if (
    type !== 'fill' ||
    !width ||
    !height ||
    !gravity ||
    (gravity === 'ce' && !options.x_offset && !options.y_offset)
  ) {
    return pipeline.resize({ width, height, fit: FIT[type], withoutEnlargement: true });
  }
  if (gravity === 'sm') {
    return pipeline.resize({
      width,
      height,
      fit: 'cover',
      position: sharp.strategy.attention,
      withoutEnlargement: true,
    });
  }
  if (animated) {
    return pipeline.resize({ width, height, fit: 'cover', withoutEnlargement: true });
  }
  const scale = Math.min(Math.max(width / source.width, height / source.height), 1);
  const scaled = { width: Math.round(source.width * scale), height: Math.round(source.height * scale) };
  const crop = { width: Math.min(width, scaled.width), height: Math.min(height, scaled.height) };
  const { left, top } = cropPosition(scaled, crop, options);
  return pipeline
    .resize({ width: scaled.width, height: scaled.height, fit: 'fill' })
    .extract({ left, top, width: crop.width, height: crop.height });
}

/**
 * Where imgproxy's crop goes (processing/calc_position.go): a focal point is centred as far as the
 * image allows; an edge or corner gravity pins the crop there, moved inwards by the offsets
 * (a fraction of the image below 1, pixels from 1); the result always stays inside the image.
 */
function cropPosition(
  image: { width: number; height: number },
  crop: { width: number; height: number },
  options: TransformOptions,
): { left: number; top: number } {
  const x = options.x_offset ?? 0;
  const y = options.y_offset ?? 0;
  let left: number;
  let top: number;
  if (options.gravity === 'fp') {
    left = Math.round(image.width * x) - Math.floor(crop.width / 2);
    top = Math.round(image.height * y) - Math.floor(crop.height / 2);
  } else {
    const offX = Math.abs(x) >= 1 ? Math.round(x) : Math.round(image.width * x);
    const offY = Math.abs(y) >= 1 ? Math.round(y) : Math.round(image.height * y);
    const gravity = options.gravity ?? 'ce';
    left = Math.floor((image.width - crop.width + 1) / 2) + offX;
    top = Math.floor((image.height - crop.height + 1) / 2) + offY;
    if (gravity.startsWith('no')) top = offY;
    if (gravity.startsWith('so')) top = image.height - crop.height - offY;
    if (gravity.endsWith('ea')) left = image.width - crop.width - offX;
    if (gravity.endsWith('we')) left = offX;
  }
  const within = (value: number, max: number) => Math.min(Math.max(value, 0), Math.max(max, 0));
  return { left: within(left, image.width - crop.width), top: within(top, image.height - crop.height) };
}

function isPixelLimit(error: unknown): boolean {
  return error instanceof Error && /pixel limit/i.test(error.message);
}

/** Renders `source` as imgproxy would for these options; every failure is the source's fault. */
export async function transformImage(
  source: Buffer,
  options: TransformOptions,
  accept: string | undefined,
): Promise<{ body: Buffer; contentType: string }> {
  try {
    const metadata = await sharp(source, { limitInputPixels: MAX_SOURCE_PIXELS }).metadata();
    if (!metadata.format || !SOURCE_FORMATS.has(metadata.format)) throw badSource();
    const format = outputFormat(options, accept, metadata);
    const frames = metadata.pages ?? 1;
    const animated = frames > 1 && frames <= MAX_ANIMATION_FRAMES && (format === 'gif' || format === 'webp');
    let pipeline = sharp(source, { limitInputPixels: MAX_SOURCE_PIXELS, animated }).rotate();
    const oriented = metadata.autoOrient ?? { width: metadata.width, height: metadata.height };
    pipeline = resize(pipeline, options, oriented, animated);
    const body = await encode(pipeline, format, options.quality ?? DEFAULT_QUALITY).toBuffer();
    return { body, contentType: MIME[format] };
  } catch (error) {
    if (error instanceof StorageError) throw error;
    throw isPixelLimit(error) ? tooManyPixels() : badSource();
  }
}

interface RenderTarget {
  object: { version: string | null; metadata: StoredMetadata | null };
  options: TransformOptions;
  /** Signed URLs send Expires (the token's expiry) instead of Cache-Control. */
  expires?: Date;
}

async function render(service: StorageService, call: Call, target: RenderTarget): Promise<void> {
  const file = await service.files.open(target.object.version);
  if (!file) {
    sendResourceMissing(call.res);
    return;
  }
  if (file.size > MAX_SOURCE_BYTES) throw tooLarge();
  // Before any work: a signed focal point without its coordinates is storage-api's InvalidParameter.
  const segments = transformationSegments(target.options);
  const source = await buffer(file.read());
  const accept = call.req.headers.accept;
  const { body, contentType } = await transformImage(source, target.options, accept);
  const metadata = target.object.metadata ?? {};
  const headers: Record<string, string | number> = {
    'Accept-Ranges': 'bytes',
    'Content-Type': contentType,
    'Content-Length': body.length,
    'X-Robots-Tag': 'none',
    'X-Content-Type-Options': 'nosniff',
  };
  const eTag = stringOr(metadata.eTag, '');
  if (eTag) headers.ETag = eTag;
  if (target.expires) headers.Expires = target.expires.toUTCString();
  else headers['Cache-Control'] = stringOr(metadata.cacheControl, 'no-cache');
  if (segments.length > 0) headers['X-Transformations'] = segments.join(',');
  const download = downloadParam(call);
  if (download !== undefined && download !== null) {
    headers['Content-Disposition'] = attachmentDisposition(download);
  }
  send(call.res, headers, call.req.method === 'HEAD' ? undefined : body);
}

function send(res: ServerResponse, headers: Record<string, string | number>, body: Buffer | undefined) {
  res.writeHead(200, headers);
  res.end(body);
}

// Routes -------------------------------------------------------------------------------------------

/** GET /render/image/authenticated/:bucket/*: read as the requester (renderAuthenticatedImage.ts). */
export async function renderAuthenticatedImage(service: StorageService, call: Call): Promise<void> {
  const options = fromQuery(call.query);
  const object = await objectForRead(service, call, 'storage.render.image_authenticated', false);
  await render(service, call, { object, options });
}

/** GET /render/image/public/:bucket/*: public buckets only (renderPublicImage.ts). */
export async function renderPublicImage(service: StorageService, call: Call): Promise<void> {
  const options = fromQuery(call.query);
  const object = await objectForRead(service, call, 'storage.render.image_public', true);
  await render(service, call, { object, options });
}

/**
 * GET /render/image/sign/:bucket/*?token=: the token's own transformations, never the query's
 * (renderSignedImage.ts).
 */
export async function renderSignedImage(service: StorageService, call: Call): Promise<void> {
  const token = call.query.get('token');
  if (!token) throw errors.validation("querystring must have required property 'token'");
  const signed = await verifyToken(service.keys, token, 'download', call.bucket, call.name);
  const object = await service.db.asAdmin((client) => findObject(client, call.bucket, call.name));
  await render(service, call, {
    object,
    options: transformationsOfToken(signed.transformations ?? ''),
    expires: new Date(signed.exp * 1000),
  });
}
