import type { FlowPage } from "./resources/BillingRequestFlowsResource.js"

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c)

const layout = (title: string, main: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #1b1b1b; }
  label { display: block; font-weight: 600; margin-top: 1rem; }
  .hint { display: block; font-weight: 400; color: #505050; }
  input { display: block; width: 100%; box-sizing: border-box; font-size: 1rem; padding: 0.5rem; margin-top: 0.25rem; border: 2px solid #0b0c0c; }
  input:focus, button:focus { outline: 3px solid #fd0; outline-offset: 0; }
  button { margin-top: 1.5rem; font-size: 1rem; padding: 0.6rem 1.2rem; background: #00703c; color: #fff; border: 0; cursor: pointer; }
  .error { border-left: 5px solid #d4351c; padding: 0.5rem 1rem; color: #d4351c; font-weight: 600; }
  .sandbox { background: #f3f2f1; padding: 0.5rem 1rem; font-size: 0.9rem; }
</style>
</head>
<body>
<main>
${main}
</main>
</body>
</html>
`

/** The sandbox's hosted payment page: a form a person fills in, with no script needed. */
export const hostedPageHtml = (page: Exclude<FlowPage, { readonly _tag: "Redirect" }>): string => {
  if (page._tag === "Done") {
    return layout("Direct Debit set up", `<h1>Direct Debit set up</h1>\n<p>${escape(page.message)}</p>`)
  }
  if (page._tag === "Gone") {
    return layout(
      "Direct Debit setup unavailable",
      `<h1>Direct Debit setup unavailable</h1>\n<p>${escape(page.message)}</p>`
    )
  }
  const invalid = page.error === null ? "" : ' aria-invalid="true" aria-describedby="form-error"'
  const error =
    page.error === null
      ? ""
      : `<div class="error" id="form-error" role="alert"><h2>There is a problem</h2><p>${escape(page.error)}</p></div>\n`
  return layout(
    `${page.error === null ? "" : "Error: "}Set up a Direct Debit`,
    `<h1>Set up a Direct Debit</h1>
<p>${escape(page.description)}</p>
<p class="sandbox">Sandbox: use sort code 20-00-00 and account number 55779911.</p>
${error}<form method="post" action="${escape(page.flowId)}" novalidate>
  <label for="account_holder_name">Account holder name</label>
  <input id="account_holder_name" name="account_holder_name" type="text" autocomplete="name" required${invalid}>
  <label for="sort_code">Sort code <span class="hint" id="sort_code_hint">6 digits, for example 20-00-00</span></label>
  <input id="sort_code" name="sort_code" type="text" inputmode="numeric" autocomplete="off" required aria-describedby="sort_code_hint"${page.error === null ? "" : ' aria-invalid="true"'}>
  <label for="account_number">Account number <span class="hint" id="account_number_hint">8 digits</span></label>
  <input id="account_number" name="account_number" type="text" inputmode="numeric" autocomplete="off" required aria-describedby="account_number_hint"${page.error === null ? "" : ' aria-invalid="true"'}>
  <button type="submit">Set up Direct Debit</button>
</form>`
  )
}
