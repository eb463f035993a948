import { customType, timestamp } from 'drizzle-orm/pg-core';
import { formatDecimal6, MICRO } from '../../../../contracts/dc-money-rules.js';

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

/** A decimal of up to 6 places as PostgreSQL writes a `numeric` of scale 6: `-12.345600`. */
const DECIMAL_6 = /^(-?)(\d{1,30})(?:\.(\d{1,6}))?$/;

/**
 * A `numeric(…, 6)` from the database as millionths (docs/decisions/0127-dc-money.md): units and
 * unit prices are exact decimals, never floats. The drivers hand a numeric over as its text, and
 * a sum of such columns keeps their scale; anything else is a fault, not a value to guess at.
 */
export function microOfNumeric(value: string): bigint {
  const match = DECIMAL_6.exec(value);
  if (!match) throw new RangeError('not a decimal of at most 6 places');
  const micro = BigInt(match[2] as string) * MICRO + BigInt((match[3] ?? '').padEnd(6, '0'));
  return match[1] === '-' ? -micro : micro;
}

/**
 * `numeric(precision, 6)` read and written as `bigint` millionths: units (`precision` 18) and unit
 * prices (10, below 10,000 as the rules bound them).
 */
export const decimal6 = customType<{
  data: bigint;
  driverData: string;
  config: { precision: number };
}>({
  dataType: (config) => `numeric(${config?.precision ?? 18}, 6)`,
  toDriver: (value) => formatDecimal6(value),
  fromDriver: (value) => microOfNumeric(String(value)),
});
