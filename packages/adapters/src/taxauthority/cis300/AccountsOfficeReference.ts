/**
 * HMRC's check of an Accounts Office reference (the contractor's `AOref` on a CIS300), as its
 * reference checker does for ePAYE references: `123PX12345678`, three digits, `P`, a check
 * letter, six digits and two more characters; the check letter is the modulus-23 remainder of
 * the weighted characters (the check letter itself weighted 0).
 */
const shape = /^\d{3}P[A-Z]\d{6}[A-Z_0-9]{2}$/
const weights = [9, 10, 11, 12, 0, 8, 7, 6, 5, 4, 3, 2, 1] as const
const checkLetters = "ABCDEFGHXJKLMNYPQRSTZVW"
/** HMRC's own values for letters (I and O, absent from its table, are never check-summed here). */
// prettier-ignore
const letterValues: Record<string, number> = {
  A: 33, B: 34, C: 35, D: 36, E: 37, F: 38, G: 39, H: 40, J: 42, K: 43, L: 44, M: 45,
  N: 46, P: 48, Q: 49, R: 50, S: 51, T: 52, U: 56, V: 54, W: 55, X: 41, Y: 47, Z: 53
}

// Digits count as themselves and `_` as -1, as in HMRC's checker.
const valueOf = (char: string): number =>
  letterValues[char] ?? (/\d/.test(char) ? Number(char) : char === "_" ? -1 : Number.NaN)

export const isValidAccountsOfficeReference = (reference: string): boolean => {
  if (!shape.test(reference)) return false
  let sum = 0
  for (let i = 0; i < weights.length; i++) sum += weights[i]! * valueOf(reference[i]!)
  if (Number.isNaN(sum)) return false
  if (reference[4] !== checkLetters[sum % 23]) return false
  // References of the 961 office follow their own shape.
  if (reference.startsWith("961"))
    return reference[12] === "X" ? reference[5] === "0" : /^961P[A-Z]\d{8}$/.test(reference)
  return true
}
