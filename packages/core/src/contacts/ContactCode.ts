export const maxContactCodeLength = 8
export const fallbackContactCodeBase = "CONTACT"

// Letters that NFKD does not decompose into an ASCII base letter.
const ligatures: Readonly<Record<string, string>> = { Æ: "AE", Œ: "OE", Ø: "O", Ł: "L", Đ: "D", Þ: "TH" }

/** The upper-case letters and digits of a display name, at most 8, accents dropped. */
export const contactCodeBase = (name: string): string => {
  const base = name
    .toUpperCase()
    .normalize("NFKD")
    .replace(/[ÆŒØŁĐÞ]/g, (c) => ligatures[c] ?? "")
    .replace(/[^A-Z0-9]/g, "")
    .slice(0, maxContactCodeLength)
  return base === "" ? fallbackContactCodeBase : base
}

// Suffixes of up to 7 digits keep at least one character of the name.
const SUFFIX_LIMIT = 10 ** (maxContactCodeLength - 1)

/** The n-th candidate (n ≥ 2): the suffix replaces trailing characters so the code stays at most 8. */
export const contactCodeCandidate = (base: string, n: number): string => {
  const suffix = String(n)
  return base.slice(0, maxContactCodeLength - suffix.length) + suffix
}

/**
 * The first free code for a name: its base, then ACMEBUI2, ACMEBUI3, …, ACMEBU10, …
 * `isTaken` receives upper-case codes and must count every code the tenant has ever used.
 */
export const generateContactCode = (name: string, isTaken: (code: string) => boolean): string => {
  const base = contactCodeBase(name)
  if (!isTaken(base)) return base
  for (let n = 2; n < SUFFIX_LIMIT; n++) {
    const candidate = contactCodeCandidate(base, n)
    if (!isTaken(candidate)) return candidate
  }
  throw new Error(`No free contact code for base ${base}`)
}

/**
 * Issues codes one after another against `taken`, which it adds each issued code to: the same
 * codes {@link generateContactCode} gives, without trying again, for every name of a base, the
 * candidates an earlier name of that base found taken (codes are only ever added, so none of
 * them can have come free). An import of thousands of names sharing a few bases is linear.
 */
export const contactCodeIssuer = (taken: Set<string>) => {
  const firstUntried = new Map<string, number>()
  return (name: string): string => {
    const base = contactCodeBase(name)
    let code = base
    if (taken.has(base)) {
      let n = firstUntried.get(base) ?? 2
      while (n < SUFFIX_LIMIT && taken.has(contactCodeCandidate(base, n))) n++
      if (n === SUFFIX_LIMIT) throw new Error(`No free contact code for base ${base}`)
      code = contactCodeCandidate(base, n)
      firstUntried.set(base, n + 1)
    }
    taken.add(code)
    return code
  }
}

/**
 * The suffixed codes {@link generateContactCode} may try for `base`, as forms: `prefix`
 * followed by exactly `digits` digits (ACMEBUI + 1 digit, ACMEBU + 2 digits, ...).
 */
export const contactCodeCandidateForms = (
  base: string
): ReadonlyArray<{ readonly prefix: string; readonly digits: number }> =>
  Array.from({ length: maxContactCodeLength - 1 }, (_, i) => ({
    prefix: base.slice(0, maxContactCodeLength - (i + 1)),
    digits: i + 1
  }))

/**
 * A regular expression, read alike by JavaScript and PostgreSQL, matching every code that
 * {@link generateContactCode} may try for `base`: the codes a store must count as taken.
 */
export const contactCodeCandidatePattern = (base: string): string => {
  const suffixed = contactCodeCandidateForms(base).map(({ digits, prefix }) => `${prefix}[0-9]{${digits}}`)
  return `^(${[base, ...suffixed].join("|")})$`
}

/** Whether a value has the shape of a contact code (after {@link normaliseContactCode}). */
export const isContactCodeShape = (code: string): boolean => /^[A-Z0-9]{1,8}$/.test(code)

/** A code as given in a path, for case-insensitive matching against stored codes. */
export const normaliseContactCode = (pathValue: string): string => pathValue.trim().toUpperCase()
