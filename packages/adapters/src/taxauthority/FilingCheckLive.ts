import { FilingCheck } from "@cisbook/core/taxauthority/FilingCheck"
import { onFirstCall } from "../OnFirstCall.js"

/**
 * The filing check against HMRC's schemas (FilingCheckHmrc), imported at its first call with
 * the XML libraries and the schemas' libxml2 it brings (see onFirstCall).
 */
export const FilingCheckLive = onFirstCall(FilingCheck, () =>
  import("./govtalk/FilingCheckHmrc.js").then((m) => m.FilingCheckHmrc)
)
