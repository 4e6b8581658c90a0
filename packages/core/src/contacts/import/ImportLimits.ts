/** The most data rows one import file may hold. */
export const MAX_IMPORT_ROWS = 10_000

/** The most bytes one import file may have: 5 MiB. */
export const MAX_IMPORT_FILE_BYTES = 5 * 1024 * 1024
