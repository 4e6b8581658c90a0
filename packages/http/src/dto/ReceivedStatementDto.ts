// The statements a tenant received, as the sdk's ReceivedStatementDtos show them, for the handlers.

// A received statement's answer is its event data, core's: cis-statement.received carries the same JSON.
export { receivedStatementEventData as receivedStatementDto } from "@cisbook/core/statements/ReceivedStatementEventData"
// Its PDF is the contractor's statement, answered as the contractor's own download is.
export { statementPdfResponse as receivedStatementPdfResponse } from "./ReturnStatementDto.js"
