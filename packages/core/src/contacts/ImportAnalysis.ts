// What the analysis of an import file says of each row, on the concept's surface for the front
// ends that answer it (the http dto, the CLI); the analysis itself is inside import/.
export type { ContactImportRow } from "./import/ContactImportRow.js"
