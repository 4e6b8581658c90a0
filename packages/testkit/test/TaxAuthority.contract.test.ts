import { taxAuthorityContract } from "@cisbook/testkit/contracts/TaxAuthorityContract"
import { TaxAuthorityMemory } from "@cisbook/testkit/TaxAuthorityFake"

taxAuthorityContract("TaxAuthorityMemory", TaxAuthorityMemory)
