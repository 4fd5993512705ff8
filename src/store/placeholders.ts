/**
 * SQL shared by both dialects is written with `?` placeholders; PostgreSQL numbers them
 * (`$1`, `$2`, …) in the order they appear.
 */
export const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** `sql` with its placeholders as `dialect` writes them. */
export const placeholdersFor = (dialect: 'sqlite' | 'postgres', sql: string) =>
  dialect === 'postgres' ? numbered(sql) : sql;
