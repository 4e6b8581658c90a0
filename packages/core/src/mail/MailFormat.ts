const months = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December"
]

/** Integer pence as people read pounds in a letter: 123456 is `£1,234.56`. */
export const formatMoney = (pence: number): string => {
  const pounds = Math.trunc(pence / 100)
  const grouped = String(pounds).replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  return `£${grouped}.${String(pence % 100).padStart(2, "0")}`
}

/** A YYYY-MM-DD date as people write it in a letter: 2026-06-05 is `5 June 2026`. */
export const formatDate = (date: string): string => {
  const [year, month, day] = date.split("-").map(Number)
  return `${day} ${months[(month ?? 1) - 1]} ${year}`
}
