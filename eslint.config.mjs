import js from "@eslint/js"
import tseslint from "typescript-eslint"

/** Which of our packages each package may import (architecture.md). */
const allowed = {
  core: [],
  sdk: ["core"],
  adapters: ["core"],
  testkit: ["core"],
  fakes: ["core"],
  http: ["core", "sdk", "adapters", "fakes"],
  cli: ["core", "sdk", "adapters"]
}
const ours = Object.keys(allowed)

const direction = Object.entries(allowed).map(([pkg, deps]) => ({
  files: [`packages/${pkg}/src/**/*.ts`],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          ...ours
            .filter((other) => other !== pkg && !deps.includes(other))
            .map((other) => ({
              group: [`@cisbook/${other}`, `@cisbook/${other}/*`],
              message: `packages/${pkg} may not import packages/${other} (see architecture.md).`
            })),
          { group: ["../../*/src/*", "../../../*/src/*"], message: "Import other packages by name (@cisbook/...)." }
        ]
      }
    ]
  }
}))

/** Core is pure: effect and its own files, nothing else. */
const corePurity = {
  files: ["packages/core/src/**/*.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          {
            regex: "^(?!effect(/|$)|\\.{1,2}/)",
            message: "packages/core imports only effect and its own files: put I/O behind a port."
          }
        ]
      }
    ],
    "no-restricted-globals": [
      "error",
      { name: "process", message: "Core reads no environment: take configuration at the edge." },
      { name: "fetch", message: "Core does no I/O: use a port." }
    ]
  }
}

export default tseslint.config(
  { ignores: ["**/node_modules/**", "data/**", "**/*.d.ts", "packages/sdk/build/**", "dist/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-namespace": "off",
      "no-restricted-syntax": [
        "error",
        { selector: "TSEnumDeclaration", message: "Use Schema.Literal instead of enums." }
      ]
    }
  },
  ...direction,
  corePurity
)
