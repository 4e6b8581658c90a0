/** A text a person may leave blank: the empty string (or none) kept as null. */
export const blankAsNull = (value: string | null | undefined): string | null => (value ? value : null)
