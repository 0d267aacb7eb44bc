/**
 * One line of a CSV file as its fields, for the small CSV inputs the server reads (the market-data
 * closes, the ingest manifest): commas separate, double quotes enclose a field holding commas, and
 * `""` inside quotes is a quote. Fields are trimmed.
 */
export const fieldsOf = (line: string): Array<string> => {
  const fields: Array<string> = []
  let field = ""
  let quoted = false
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!
    if (quoted) {
      if (char === "\"" && line[index + 1] === "\"") {
        field += "\""
        index++
      } else if (char === "\"") {
        quoted = false
      } else {
        field += char
      }
    } else if (char === "\"") {
      quoted = true
    } else if (char === ",") {
      fields.push(field)
      field = ""
    } else {
      field += char
    }
  }
  fields.push(field)
  return fields.map((value) => value.trim())
}
