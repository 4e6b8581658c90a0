import { Schema } from "effect"

/** A tenant's email settings; before the first change, no signature and no automatic statements. */
export class EmailSettings extends Schema.Class<EmailSettings>("EmailSettings")({
  signature: Schema.NullOr(Schema.String),
  autoEmailStatements: Schema.Boolean
}) {
  static readonly defaults = new EmailSettings({ signature: null, autoEmailStatements: false })
}
