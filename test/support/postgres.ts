/**
 * A fresh PostgreSQL database per test file, on the server that `FILINGS_TEST_DATABASE_URL` names
 * (an admin URL); dropped afterwards.
 */
import { randomBytes } from "node:crypto"
import pg from "pg"

export { adminUrl, titleNeedingPostgres } from "./adminUrl.js"

export interface TemporaryDatabase {
  readonly url: string
  readonly drop: () => Promise<void>
}

export const createDatabase = async (admin: string): Promise<TemporaryDatabase> => {
  const name = `filings_contract_${randomBytes(6).toString("hex")}`
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  try {
    await client.query(`CREATE DATABASE ${name}`)
  } finally {
    await client.end()
  }
  const url = new URL(admin)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: admin })
      await dropper.connect()
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      } finally {
        await dropper.end()
      }
    }
  }
}
