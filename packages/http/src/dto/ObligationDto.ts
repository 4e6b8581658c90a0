import type { Obligation } from "@cisbook/core/returns/Obligation"
import type { ObligationDto } from "@cisbook/sdk/MonthlyReturnDtos"

/** A tax month's obligation as the API answers it (the penalty in pence, which the dto speaks as pounds). */
export const obligationDto = (obligation: Obligation): typeof ObligationDto.Type => ({ ...obligation })
