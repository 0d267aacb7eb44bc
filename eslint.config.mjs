// Lint and format in one pass: typescript-eslint for correctness, Effect's dprint rule for layout
// (2 spaces, 120 columns, no semicolons, double quotes), the same settings the Effect monorepo uses.
import effectPlugin from "@effect/eslint-plugin"
import tseslint from "typescript-eslint"

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "**/*.d.ts", ".filings/**", "coverage/**", "docs/api/**"] },
  ...tseslint.configs.recommended,
  ...effectPlugin.configs.dprint,
  {
    files: ["**/*.ts", "**/*.mjs", "**/*.js"],
    rules: {
      "@effect/dprint": ["error", {
        config: {
          indentWidth: 2,
          lineWidth: 120,
          semiColons: "asi",
          quoteStyle: "alwaysDouble",
          trailingCommas: "never",
          operatorPosition: "maintain",
          "arrowFunction.useParentheses": "force"
        }
      }],
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-namespace": "off",
      "@typescript-eslint/array-type": ["error", { default: "generic", readonly: "generic" }]
    }
  },
  {
    files: ["packages/*/src/**/*.ts"],
    rules: { "no-console": "error" }
  },
  // The server reads its environment in the composition root alone; every other module is given
  // its settings (docs/architecture.md, Configuration).
  {
    files: ["packages/server/src/**/*.ts"],
    ignores: ["packages/server/src/Composition.ts", "packages/server/src/cli/main.ts"],
    rules: {
      "no-restricted-imports": ["error", {
        patterns: [{
          regex: "(^|/)Environment(\\.js)?$",
          message: "Only the composition root (Composition.ts, cli/main.ts) reads the environment; " +
            "take the setting as an option or a service it provides."
        }]
      }]
    }
  }
)
