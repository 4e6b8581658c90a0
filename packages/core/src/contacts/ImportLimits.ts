/** The most data rows one import file may hold. */
export const MAX_IMPORT_ROWS = 10_000

/** The most bytes one import file may have: 5 MiB. */
export const MAX_IMPORT_FILE_BYTES = 5 * 1024 * 1024

/**
 * Rows analysed, looked up and written together: per batch, one short transaction issuing the
 * codes and one writing the contacts and their events (two batches written at once). 1,000 rows
 * keep the largest statement (contacts, 32 columns) at half PostgreSQL's 65,535 parameters; 500
 * made an import of 10,000 rows ~15% slower.
 */
export const IMPORT_BATCH_ROWS = 1000
