import { Encoding } from "effect"

/** 192 random bits: the contract asks for at least 128. */
export const SESSION_TOKEN_BYTES = 24

export const formatSessionToken = (random: Uint8Array): string => `sess_${Encoding.encodeBase64Url(random)}`

/** Compares in time that does not depend on where two tokens first differ. */
export const sameToken = (a: string, b: string): boolean => {
  let difference = a.length ^ b.length
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    difference |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0)
  }
  return difference === 0
}
