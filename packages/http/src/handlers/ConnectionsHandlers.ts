import { Connections } from "@cisbook/core/connections/Connections"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Array, Effect } from "effect"
import { connectionDto } from "../dto/ConnectionDto.js"

export const ConnectionsHandlers = HttpApiBuilder.group(CisbookApi, "connections", (handlers) =>
  Effect.gen(function* () {
    const connections = yield* Connections
    return handlers
      .handle("listConnections", ({ urlParams }) =>
        connections.list(urlParams).pipe(Effect.map(Array.map(connectionDto)))
      )
      .handle("createConnection", ({ payload }) => connections.create(payload).pipe(Effect.map(connectionDto)))
      .handle("getConnection", ({ path }) => connections.get(path.connection).pipe(Effect.map(connectionDto)))
      .handle("deleteConnection", ({ path }) => connections.remove(path.connection))
      .handle("setConnectionCounterparty", ({ path, payload }) =>
        connections.setCounterparty(path.connection, payload).pipe(Effect.map(connectionDto))
      )
  })
)
