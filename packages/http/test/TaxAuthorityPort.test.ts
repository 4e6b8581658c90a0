import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { taxAuthorityContract } from "@cisbook/testkit/contracts/TaxAuthorityContract"
import { Layer } from "effect"
import { GovTalkSandbox } from "./GovTalkSandbox.js"

// The GovTalk adapter over the local Transaction Engine the server serves (TAX_AUTHORITY=sandbox).
taxAuthorityContract(
  "GovTalk adapter over the local Transaction Engine",
  GovTalkSandbox.pipe(Layer.provide(EphemeralDatabase))
)
