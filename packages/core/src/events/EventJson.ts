/**
 * An event's data already turned into JSON text: the outbox writes the text as it is instead of
 * turning the data into JSON itself. A use case that records many events prepares their text
 * before its transaction (an import, while the batch before is being written).
 */
export class EventJson {
  constructor(readonly text: string) {}
}

/** The JSON text of an event's data (undefined data is null). */
export const eventJsonText = (data: unknown): string =>
  data instanceof EventJson ? data.text : JSON.stringify(data ?? null)
