import { Arbitrary, type Schema } from "effect"

/**
 * Any value of the schema whose instants (its Date members) are real dates, as a stored row's
 * are: the arbitrary of DateFromSelf also draws `new Date(NaN)`, which no wire accepts.
 */
export const withRealInstants = <A extends object, I>(schema: Schema.Schema<A, I>) =>
  Arbitrary.make(schema).filter((value) =>
    Object.values(value).every((member) => !(member instanceof Date) || !Number.isNaN(member.getTime()))
  )
