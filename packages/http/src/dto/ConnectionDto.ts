// The connections' mapping module: their models as the sdk's ConnectionDtos, for the handlers.
import { connectionEventData } from "@cisbook/core/connections/ConnectionEventData"
import type { SeenConnection } from "@cisbook/core/connections/Connections"

/** The connection as its viewer sees it: its event data, core's, as its event carries the same JSON. */
export const connectionDto = ({ connection, viewer }: SeenConnection) => connectionEventData(connection, viewer)
