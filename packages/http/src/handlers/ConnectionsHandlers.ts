import { CurrentUser } from "@cisbook/core/users/CurrentUser"
import { Connections } from "@cisbook/core/connections/Connections"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { connectionDto } from "../dto/ConnectionDto.js"

export const ConnectionsHandlers = HttpApiBuilder.group(CisbookApi, "connections", (handlers) =>
  Effect.gen(function* () {
    const connections = yield* Connections
    return handlers
      .handle("listConnections", ({ urlParams }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => connections.list(user, urlParams)),
          Effect.map((all) => all.map(connectionDto))
        )
      )
      .handle("createConnection", ({ payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => connections.create(user, payload)),
          Effect.map(connectionDto)
        )
      )
      .handle("getConnection", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => connections.get(user, path.connection)),
          Effect.map(connectionDto)
        )
      )
      .handle("deleteConnection", ({ path }) =>
        CurrentUser.pipe(Effect.flatMap((user) => connections.remove(user, path.connection)))
      )
      .handle("setConnectionCounterparty", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => connections.setCounterparty(user, path.connection, payload)),
          Effect.map(connectionDto)
        )
      )
  })
)
