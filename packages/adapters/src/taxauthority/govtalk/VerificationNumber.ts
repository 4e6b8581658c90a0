/** HMRC writes an unmatched verification number's letters straight after the digits (V1234567890A). */
export const hmrcVerificationNumber = (number: string): string => number.replace("/", "")

/** The API writes them after a slash (V1234567890/A), as HMRC's manuals do. */
export const apiVerificationNumber = (number: string): string => number.replace(/^(V\d{10})\/?([A-Z]{1,2})$/, "$1/$2")
