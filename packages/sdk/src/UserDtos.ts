import { Schema } from "effect"

export class MeDto extends Schema.Class<MeDto>("MeDto")({
  id: Schema.String,
  email: Schema.NullOr(Schema.String).annotations({
    description: "null for a user signed in with a token that carries no email claim"
  }),
  name: Schema.String
}) {}
