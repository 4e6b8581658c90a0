import type { ConnectionDirection } from "./Connection.js"

/** A create request, checked: the tenant's contact (a code), the direction, the address to invite. */
export interface NewConnection {
  readonly contact: string
  readonly direction: ConnectionDirection
  /** A valid address, lower case (as EmailAddress decodes it). */
  readonly email: string
}

export interface ConnectionListRequest {
  readonly contact?: string | undefined
  readonly direction?: ConnectionDirection | undefined
}

/** The receiving tenant's side: its contact for the initiator, or none to create one from the shared details. */
export interface SetCounterpartyRequest {
  readonly contact?: string | null | undefined
}
