/**
 * How a validation problem names a member: as ASP.NET Core writes it (the notation clients of
 * HttpValidationProblemDetails parse), members joined by "." and array positions in brackets,
 * `lines[0].contact`, `address.lines[1]`; the input itself is `$`.
 */
export const memberPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.length === 0
    ? "$"
    : path.reduce<string>(
        (written, key) =>
          typeof key === "number" ? `${written}[${key}]` : written === "" ? String(key) : `${written}.${String(key)}`,
        ""
      )
