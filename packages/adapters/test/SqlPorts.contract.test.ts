import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { SqlPortsLive } from "@cisbook/adapters/sql/SqlPortsLive"
import { SystemLive } from "@cisbook/adapters/system/SystemLive"
import { portContracts } from "@cisbook/testkit/contracts/PortContracts"
import { Layer } from "effect"
import { RecordedEventsSql } from "./RecordedEventsSql.js"

portContracts(
  "SqlPorts",
  Layer.mergeAll(SqlPortsLive, RecordedEventsSql).pipe(Layer.provideMerge(SystemLive), Layer.provide(EphemeralDatabase))
)
