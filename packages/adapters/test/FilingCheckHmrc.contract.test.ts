import { FilingCheckHmrc } from "@cisbook/adapters/taxauthority/govtalk/FilingCheckHmrc"
import { filingCheckContract } from "@cisbook/testkit/contracts/FilingCheckContract"
import { layer } from "@effect/vitest"

layer(FilingCheckHmrc)("FilingCheckHmrc (HMRC's XSDs through libxml2)", (it) => filingCheckContract(it))
