import { FilingCheckMemory } from "@cisbook/testkit/FilingCheckMemory"
import { filingCheckContract } from "@cisbook/testkit/contracts/FilingCheckContract"
import { layer } from "@effect/vitest"

layer(FilingCheckMemory)("FilingCheckMemory", (it) => filingCheckContract(it))
