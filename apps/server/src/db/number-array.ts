/**
 * A list of numbers as PostgreSQL's array literal (`{1,2.5,NULL}`), to be cast with `::int8[]` or
 * `::float8[]`. node-postgres escapes and quotes each element of an array parameter on its own;
 * ingest sends arrays of thousands of numbers several times a second, where one join is cheaper.
 * Only finite numbers and null belong here (a NaN or an infinity is a bug upstream, so it throws).
 */
export function numberArray(values: readonly (number | null | undefined)[]): string {
  let out = "{";
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += ",";
    if (v === null || v === undefined) out += "NULL";
    else if (Number.isFinite(v)) out += v;
    else throw new RangeError(`not a finite number: ${v}`);
  }
  return `${out}}`;
}
