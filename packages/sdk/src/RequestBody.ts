import { Schema } from "effect"

/** A request body that reports every invalid member at once, not just the first. */
export const requestBody = <Fields extends Schema.Struct.Fields>(identifier: string, fields: Fields) =>
  Schema.Struct(fields).annotations({ identifier, parseOptions: { errors: "all" } })

/** An optional request member: omitted and `null` mean the same. */
export const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { nullable: true })
