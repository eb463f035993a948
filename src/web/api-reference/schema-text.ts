/** Just enough of JSON Schema to describe our request and response bodies to a reader. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  pattern?: string;
  default?: unknown;
  description?: string;
}

function limits(schema: JsonSchema): string {
  const parts: string[] = [];
  if (schema.minLength !== undefined || schema.maxLength !== undefined) {
    parts.push(`${schema.minLength ?? 0}–${schema.maxLength ?? '∞'} chars`);
  }
  if (schema.minimum !== undefined || schema.maximum !== undefined) {
    parts.push(`${schema.minimum ?? '−∞'}–${schema.maximum ?? '∞'}`);
  }
  if (schema.format) parts.push(schema.format);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** A TypeScript-like one-glance description of a schema, indented for nested objects. */
export function schemaText(schema: JsonSchema | undefined, indent = ''): string {
  if (!schema) return 'nothing';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map((member) => schemaText(member, indent)).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'object' || schema.properties) {
    const entries = Object.entries(schema.properties ?? {});
    if (entries.length === 0) return '{}';
    const inner = `${indent}  `;
    const lines = entries.map(([name, property]) => {
      const optional = schema.required?.includes(name) ? '' : '?';
      return `${inner}${name}${optional}: ${schemaText(property, inner)}`;
    });
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
  if (type === 'array') return `${schemaText(schema.items, indent)}[]`;
  return `${type ?? 'any'}${limits(schema)}`;
}
