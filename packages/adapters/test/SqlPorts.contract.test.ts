import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { SqlPortsLive } from "@cisbook/adapters/sql/SqlPortsLive"
import { SystemLive } from "@cisbook/adapters/system/SystemLive"
import { portContracts } from "@cisbook/testkit/contracts/PortContracts"
import { Layer } from "effect"

portContracts("SqlPorts", Layer.mergeAll(SqlPortsLive.pipe(Layer.provide(EphemeralDatabase)), SystemLive))
