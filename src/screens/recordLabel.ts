import type { RaRecord } from 'react-admin';

/**
 * How a record is named (the editing panel's title, the delete confirmation): the value at the
 * resource's declared recordRepresentation and the id, or the id alone.
 */
export function recordLabel(record: RaRecord, representation?: string): string {
  const value = representation?.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], record);
  return typeof value === 'string' && value.trim() ? `${value.trim()} (#${record.id})` : `#${record.id}`;
}
