import { Context, type Effect, type Option } from "effect"
import type { ReceivedStatementId, TenantId } from "../Ids.js"
import type { ReceivedStatement } from "./ReceivedStatement.js"
import type { PeriodBounds } from "./ReceivedStatementQuery.js"

/** The statements tenants received from the contractors they are connected to, with their PDFs. */
export class ReceivedStatementRepo extends Context.Tag("core/ReceivedStatementRepo")<
  ReceivedStatementRepo,
  {
    /**
     * Stores the statement and its PDF; false (and nothing stored) when the tenant already holds
     * the statement of the same source (a contractor's return line): each is received once.
     */
    readonly insert: (statement: ReceivedStatement, pdf: Uint8Array) => Effect.Effect<boolean>
    /** The tenant's statements whose periodEnd lies within the bounds (both included): latest periodEnd first, then latest received, then by id. */
    readonly list: (tenantId: TenantId, bounds: PeriodBounds) => Effect.Effect<ReadonlyArray<ReceivedStatement>>
    readonly find: (tenantId: TenantId, id: ReceivedStatementId) => Effect.Effect<Option.Option<ReceivedStatement>>
    readonly pdf: (tenantId: TenantId, id: ReceivedStatementId) => Effect.Effect<Option.Option<Uint8Array>>
  }
>() {}
