import type { PGlite } from "@electric-sql/pglite"

/** A protocol message of one client of the socket, waiting for the embedded database. */
interface Waiting {
  readonly client: number
  readonly run: () => Promise<number>
  readonly reject: (cause: unknown) => void
}

const READY_FOR_QUERY = 0x5a // 'Z'
const IDLE = 0x49 // 'I': no transaction under way
const TERMINATE = 0x58 // 'X'

const sync = () => new Uint8Array([0x53, 0, 0, 0, 4])

const query = (text: string) => {
  const body = Buffer.from(`${text}\0`)
  const message = Buffer.alloc(5 + body.length)
  message[0] = 0x51 // 'Q'
  message.writeInt32BE(4 + body.length, 1)
  body.copy(message, 5)
  return new Uint8Array(message)
}

/**
 * Whether the database's answer to a message ended a client's turn: its last message is
 * ReadyForQuery saying no transaction is under way. An answer without one (Parse, Bind,
 * Execute: the cycle goes on until Sync) or one inside a transaction leaves the turn open.
 */
const endsTurn = (answer: Uint8Array) => {
  let idle = false
  let at = 0
  while (at + 5 <= answer.length) {
    const length = Buffer.from(answer.buffer, answer.byteOffset + at + 1, 4).readInt32BE(0)
    if (answer[at] === READY_FOR_QUERY && at + 5 < answer.length) idle = answer[at + 5] === IDLE
    at += 1 + length
  }
  return idle
}

/**
 * The queue through which the clients of the embedded database's socket take turns on its one
 * session, in place of @electric-sql/pglite-socket's own. That one took turns a protocol message
 * at a time outside transactions: between one client's Parse, Bind, Execute and Sync another
 * client's ran, and as PGlite is one session they shared its unnamed statement and portal, so a
 * statement ran another client's statement, or its parameters, and answered its rows (issue 40).
 * It also stopped for good once a message threw. Here a client keeps the session from its first
 * message until the database says it is idle again (ReadyForQuery outside a transaction), its
 * statements and its transactions whole; a client that leaves in the middle of its turn has what
 * it began rolled back.
 */
export class PgliteSessionQueue {
  private readonly waiting: Array<Waiting> = []
  /** The client whose turn it is; undefined while the session is idle. */
  private holder: number | undefined = undefined
  private running = false

  constructor(private readonly db: PGlite) {}

  /** Runs a client's message in its turn, passing the answer on as it comes; the answer's size. */
  enqueue(client: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const run = async () => {
        const answer: Array<Uint8Array> = []
        await this.db.runExclusive(() =>
          this.db.execProtocolRawStream(message, {
            onRawData: (data) => {
              answer.push(data)
              onData(data)
            }
          })
        )
        const whole = answer.length === 1 ? answer[0]! : Buffer.concat(answer)
        // Terminate is answered with nothing: the client is leaving, and its leaving ends its turn.
        if (message[0] !== TERMINATE) this.holder = endsTurn(whole) ? undefined : client
        resolve(whole.length)
        return whole.length
      }
      this.waiting.push({ client, run, reject })
      void this.drain()
    })
  }

  getQueueLength() {
    return this.waiting.length
  }

  /** Drops the messages of a client that has gone. */
  clearQueueForHandler(client: number) {
    for (let at = this.waiting.length - 1; at >= 0; at--) {
      const waiting = this.waiting[at]!
      if (waiting.client === client) {
        this.waiting.splice(at, 1)
        waiting.reject(new Error("Handler disconnected"))
      }
    }
  }

  /**
   * Ends the turn of a client that has gone, in the turn's order: what it began (a transaction,
   * or a statement not yet synced) is rolled back, and the session is idle for the others.
   */
  clearTransactionIfNeeded(client: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const run = async () => {
        try {
          if (this.holder === client) {
            await this.db.runExclusive(async () => {
              // ROLLBACK ends a transaction or an unsynced statement unless an error has the session
              // skipping to the next Sync; the Sync ends that, and what is left is then rolled back.
              await this.db.execProtocolRaw(query("ROLLBACK"))
              await this.db.execProtocolRaw(sync())
              if (this.db.isInTransaction()) await this.db.execProtocolRaw(query("ROLLBACK"))
            })
          }
        } finally {
          // Never the gone client's turn again, whatever the rollback met: the others go on.
          if (this.holder === client) this.holder = undefined
          resolve()
        }
        return 0
      }
      this.waiting.push({ client, run, reject: () => {} })
      void this.drain()
    })
  }

  private next(): Waiting | undefined {
    const at = this.holder === undefined ? 0 : this.waiting.findIndex((waiting) => waiting.client === this.holder)
    return at === -1 ? undefined : this.waiting.splice(at, 1)[0]
  }

  private async drain() {
    if (this.running) return
    this.running = true
    try {
      for (let waiting = this.next(); waiting !== undefined; waiting = this.next()) {
        // A message that throws fails its client, whose handler then closes it; the others go on.
        await waiting.run().catch(waiting.reject)
      }
    } finally {
      this.running = false
    }
  }
}
