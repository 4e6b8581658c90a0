import { Schema } from "effect"

export class MeDto extends Schema.Class<MeDto>("MeDto")({
  id: Schema.String.annotations({ examples: ["0196a5f2-52c1-7c3a-9d1e-8f27c1b6a001"] }),
  email: Schema.NullOr(Schema.String).annotations({
    description: "null for a user signed in with a token that carries no email claim",
    examples: ["ada@lovelace-builders.example"]
  }),
  name: Schema.String.annotations({ examples: ["Ada Lovelace"] })
}) {}
