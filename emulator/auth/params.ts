// Reading a request body's fields as GoTrue's Go structs decode them (internal/api/helpers.go
// retrieveRequestParams): a field of the wrong JSON type is a bad_json error naming the Go type.
import { badRequest } from './errors.ts';

/** Reads an optional string field; a value of another type is a JSON decoding error, as in Go. */
export function stringParam(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') {
    throw badRequest(
      'bad_json',
      `Could not parse request body as JSON: json: cannot unmarshal ${typeof value} into Go struct field .${key} of type string`,
    );
  }
  return value;
}

export function objectParam(body: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(
      'bad_json',
      `Could not parse request body as JSON: json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go struct field .${key} of type map[string]interface {}`,
    );
  }
  return value as Record<string, unknown>;
}

export function boolParam(body: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const value = body[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') {
    throw badRequest(
      'bad_json',
      `Could not parse request body as JSON: json: cannot unmarshal ${typeof value} into Go struct field .${key} of type bool`,
    );
  }
  return value;
}
