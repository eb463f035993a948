import { customType, timestamp } from 'drizzle-orm/pg-core';

/** Column types and groups the tables of every module share. */
export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
};

/** PostgreSQL's bytea, as the drivers hand it over: a Buffer (pg) or a Uint8Array (PGlite). */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

/** PostgreSQL's tsvector: drizzle has no builtin for it, and only the database ever writes it. */
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
