import { Schema } from "effect"

export class MeDto extends Schema.Class<MeDto>("MeDto")({
  id: Schema.String,
  email: Schema.String,
  name: Schema.String
}) {}
