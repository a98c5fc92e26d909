// The image transformations a request or a signed URL asks for, read and written as storage-api does
// (supabase/storage src/http/schemas/transformations.ts, src/storage/renderer/image.ts): the options,
// their validation, the `X-Transformations` segments, and a signed token's `transformations` claim.
import { errors } from './errors.ts';

export interface TransformOptions {
  width?: number;
  height?: number;
  resize?: 'cover' | 'contain' | 'fill';
  format?: 'origin' | 'avif' | 'webp';
  quality?: number;
  gravity?: Gravity;
  x_offset?: number;
  y_offset?: number;
}

// storage-api's IMAGE_TRANSFORMATION_LIMIT_MIN_SIZE / _MAX_SIZE defaults: sizes are clamped, not refused.
export const SIZE_MIN = 1;
export const SIZE_MAX = 2000;

const RESIZE = ['cover', 'contain', 'fill'] as const;
const FORMAT = ['origin', 'avif', 'webp'] as const;
const GRAVITY = ['no', 'so', 'ea', 'we', 'noea', 'nowe', 'soea', 'sowe', 'ce', 'sm', 'fp'] as const;
type Gravity = (typeof GRAVITY)[number];

// Validation --------------------------------------------------------------------------------------

/**
 * One integer the way fastify's ajv coerces it (`coerceTypes: 'array'`): a numeric string becomes a
 * number, a single-element array its element; anything else is "must be integer".
 */
function integerField(raw: unknown, where: string, minimum: number, maximum?: number): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const single = Array.isArray(raw) && raw.length === 1 ? raw[0] : raw;
  const value = typeof single === 'string' && single !== '' ? Number(single) : single;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw errors.validation(`${where} must be integer`);
  }
  if (value < minimum) throw errors.validation(`${where} must be >= ${minimum}`);
  if (maximum !== undefined && value > maximum) throw errors.validation(`${where} must be <= ${maximum}`);
  return value;
}

function numberField(raw: unknown, where: string): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const single = Array.isArray(raw) && raw.length === 1 ? raw[0] : raw;
  const value = typeof single === 'string' && single.trim() !== '' ? Number(single) : single;
  if (typeof value !== 'number' || Number.isNaN(value)) throw errors.validation(`${where} must be number`);
  if (!Number.isFinite(value)) throw errors.validation(`${where} must pass "finite" keyword validation`);
  return value;
}

function enumField<T extends string>(raw: unknown, where: string, allowed: readonly T[]): T | undefined {
  if (raw === undefined || raw === null) return undefined;
  const single = Array.isArray(raw) && raw.length === 1 ? raw[0] : raw;
  if (!allowed.includes(single as T)) {
    throw errors.validation(`${where} must be equal to one of the allowed values`);
  }
  return single as T;
}

/** storage-api's transformationOptionsSchema, over a query string or a JSON `transform` object. */
function transformOptions(read: (key: string) => unknown, where: string): TransformOptions {
  const options: TransformOptions = {
    height: integerField(read('height'), `${where}/height`, 0),
    width: integerField(read('width'), `${where}/width`, 0),
    resize: enumField(read('resize'), `${where}/resize`, RESIZE),
    format: enumField(read('format'), `${where}/format`, FORMAT),
    quality: integerField(read('quality'), `${where}/quality`, 20, 100),
    gravity: enumField(read('gravity'), `${where}/gravity`, GRAVITY),
    x_offset: numberField(read('x_offset'), `${where}/x_offset`),
    y_offset: numberField(read('y_offset'), `${where}/y_offset`),
  };
  // The schema's if/then: a focal point needs both offsets, each within 0..1 (fastify joins the
  // failing keyword and the `then` that holds it).
  if (options.gravity === 'fp') {
    const then = `${where} must match "then" schema`;
    for (const key of ['x_offset', 'y_offset'] as const) {
      const value = options[key];
      if (value === undefined) {
        throw errors.validation(`${where} must have required property '${key}', ${then}`);
      }
      if (value < 0) throw errors.validation(`${where}/${key} must be >= 0, ${then}`);
      if (value > 1) throw errors.validation(`${where}/${key} must be <= 1, ${then}`);
    }
  }
  return options;
}

export function fromQuery(query: URLSearchParams): TransformOptions {
  return transformOptions((key) => {
    const values = query.getAll(key);
    return values.length === 0 ? undefined : values.length === 1 ? values[0] : values;
  }, 'querystring');
}

/** The `transform` of a create-signed-URL body, validated as storage-api's body schema does. */
export function transformOfBody(value: unknown): TransformOptions | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    throw errors.validation('body/transform must be object');
  const body = value as Record<string, unknown>;
  return transformOptions((key) => body[key], 'body/transform');
}

// The transformation strings -----------------------------------------------------------------------

export const clamp = (value: number) => Math.min(Math.max(value, SIZE_MIN), SIZE_MAX);

/** imgproxy's resizing type for storage's `resize` (ImageRenderer.formatResizeType). */
export function resizingType(resize: string | undefined): 'fill' | 'fit' | 'force' {
  if (resize === 'contain') return 'fit';
  if (resize === 'fill') return 'force';
  return 'fill';
}

/**
 * The segments ImageRenderer.applyTransformation produces: what is sent as `X-Transformations` (with
 * imgproxy's resizing type), or, `forToken`, the `transformations` claim of a signed URL (with the
 * client's `resize` word; storage-api writes `resize:undefined` when none was given, read back as the
 * default, which leaving the segment out does the same as).
 */
export function transformationSegments(options: TransformOptions, forToken = false): string[] {
  const segments: string[] = [];
  if (options.height) segments.push(`height:${clamp(options.height)}`);
  if (options.width) segments.push(`width:${clamp(options.width)}`);
  if (options.width || options.height) {
    if (!forToken) segments.push(`resizing_type:${resizingType(options.resize)}`);
    else if (options.resize) segments.push(`resize:${options.resize}`);
  }
  if (options.quality) segments.push(`quality:${options.quality}`);
  if (options.format && options.format !== 'origin') segments.push(`format:${options.format}`);
  const { gravity, x_offset: x, y_offset: y } = options;
  if (gravity === 'sm') segments.push('gravity:sm');
  else if (gravity === 'fp') {
    if (!isUnit(x) || !isUnit(y)) {
      throw errors.invalidParameter('gravity', 'Focal point requires x and y coordinates within 0-1 range');
    }
    segments.push(`gravity:fp:${x}:${y}`);
  } else if (gravity) {
    segments.push(
      x === undefined && y === undefined ? `gravity:${gravity}` : `gravity:${gravity}:${x ?? 0}:${y ?? 0}`,
    );
  }
  return segments;
}

const isUnit = (value: number | undefined): value is number =>
  value !== undefined && Number.isFinite(value) && value >= 0 && value <= 1;

/** ImageRenderer.setTransformationsFromString: a signed token's `transformations` claim. */
export function transformationsOfToken(claim: string): TransformOptions {
  const options: TransformOptions = {};
  for (const part of claim.split(',')) {
    const [name, value, x, y] = part.split(':');
    if (value === undefined || value === '') continue;
    const number = Number.parseInt(value, 10);
    if (name === 'height' && number > 0) options.height = number;
    else if (name === 'width' && number > 0) options.width = number;
    else if (name === 'quality' && number >= 1 && number <= 100) options.quality = number;
    else if (name === 'resize' && (RESIZE as readonly string[]).includes(value)) {
      options.resize = value as TransformOptions['resize'];
    } else if (name === 'format' && (FORMAT as readonly string[]).includes(value)) {
      options.format = value as TransformOptions['format'];
    } else if (name === 'gravity' && (GRAVITY as readonly string[]).includes(value)) {
      options.gravity = value as Gravity;
      const [xOffset, yOffset] = [Number.parseFloat(x ?? ''), Number.parseFloat(y ?? '')];
      if (Number.isFinite(xOffset)) options.x_offset = xOffset;
      if (Number.isFinite(yOffset)) options.y_offset = yOffset;
    }
  }
  return options;
}
