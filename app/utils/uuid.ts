// A UUID as the database writes ids (any version, either case): the one pattern every route checks an
// id against before it asks the backend, so a malformed id is a plain 404 or 400, never a SQL error.
import * as z from 'zod/mini';

export const Uuid = z.guid();

export const isUuid = (value: unknown): value is string => Uuid.safeParse(value).success;
