/**
 * Rows as CSV (RFC 4180): fields with commas, quotes or line breaks are quoted; a field a
 * spreadsheet would read as a formula (=, +, -, @) is prefixed with an apostrophe, unless it is a
 * plain number ('-12.34' stays a number). Lists' exports and the ledger's documents use it.
 */
export function toCsv(rows: readonly (readonly string[])[]): string {
  const field = (value: string) => {
    const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return rows.map((row) => row.map(field).join(',')).join('\r\n');
}
