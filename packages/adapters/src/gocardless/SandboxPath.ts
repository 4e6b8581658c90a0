/** Where the server serves its GoCardless-compatible sandbox. */
export const SANDBOX_PATH = "/sandbox/gocardless"
