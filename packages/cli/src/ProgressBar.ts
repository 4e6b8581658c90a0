const WIDTH = 30

/** `[#########---------------------]  30%  3,000 of 10,000 rows` */
export const progressBar = (done: number, total: number): string => {
  const share = total === 0 ? 1 : Math.min(done / total, 1)
  const filled = Math.round(share * WIDTH)
  const percent = `${Math.floor(share * 100)}%`.padStart(4)
  return `[${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}] ${percent}  ${done.toLocaleString("en-GB")} of ${total.toLocaleString("en-GB")} rows`
}
