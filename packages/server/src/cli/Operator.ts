/**
 * What the operator commands (`keys`, `ingest`, `search`, `ask`, `companies`) do, with two ways of doing it: directly on the
 * database, or through the `/admin` routes of a running server. The CLI picks the way (see
 * `OperatorSelection`), so a user never has to stop the server to add documents or keys.
 */
import { FileSystem, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { type Admin, Api, ApiError, type Chat, Company, type Ids, type Search } from "@filings/domain"
import { CompanyStore, DocumentStore } from "@filings/storage"
import { type ConfigError, Context, Effect, Layer, Option, Redacted } from "effect"
import { basename } from "node:path"
import { ApiKeys } from "../ApiKeys.js"
import * as Answering from "../chat/Chat.js"
import * as CompanyProfiles from "../companies/CompanyProfiles.js"
import { Ingestion, type Overrides } from "../ingest/Ingestion.js"
import * as PassageSearch from "../search/Search.js"
import type { ChatModelSettings } from "../ServerConfig.js"
import { CliFailure, fromError } from "./CliFailure.js"

export interface Service {
  /** Says where the work goes, for the first line a command prints. */
  readonly description: string
  readonly createKey: (request: Admin.CreateApiKeyRequest) => Effect.Effect<Admin.CreatedApiKey, CliFailure>
  readonly listKeys: Effect.Effect<ReadonlyArray<Admin.ApiKeyInfo>, CliFailure>
  readonly revokeKey: (id: string) => Effect.Effect<Admin.ApiKeyInfo, CliFailure>
  readonly ingestFile: (path: string, overrides: Overrides) => Effect.Effect<Admin.IngestResult, CliFailure>
  /** Searches the stored passages as `GET /v1/search` does. */
  readonly search: (params: Search.SearchParams) => Effect.Effect<Search.SearchResults, CliFailure>
  /** Answers a question as `POST /v1/chat` does, whole. */
  readonly ask: (request: Chat.ChatRequest) => Effect.Effect<Chat.ChatAnswer, CliFailure>
  /** Ingests a file already in memory (a submission fetched from EDGAR). */
  readonly ingestBytes: (
    fileName: string,
    bytes: Uint8Array,
    overrides: Overrides
  ) => Effect.Effect<Admin.IngestResult, CliFailure>
  /** The profile of the company with this ticker, as `GET /v1/companies/{ticker}` gives it. */
  readonly showCompany: (ticker: Ids.Ticker) => Effect.Effect<Company.CompanyProfile, CliFailure>
  /** Replaces the stored list of listed companies (see `CompanyStore.saveListing`). */
  readonly saveListing: (
    listed: ReadonlyArray<CompanyStore.ListedTicker>
  ) => Effect.Effect<CompanyStore.ListingSaved, CliFailure>
}

export class Operator extends Context.Tag("@filings/server/cli/Operator")<Operator, Service>() {}

const readFile = (path: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFile(path)).pipe(
    Effect.mapError((error) => new CliFailure({ message: `cannot read ${path}: ${error.message}` }))
  )

const noSuchKey = (id: string) => new CliFailure({ message: `no API key with id ${id}` })

/**
 * Works on the database in this process. `ask` answers with the chat model `chatModel` reads (at
 * each question, so a bad setting fails `ask` alone) through the given `HttpClient`.
 */
export const layerDirect = (chatModel: Effect.Effect<Option.Option<ChatModelSettings>, ConfigError.ConfigError>) =>
  Layer.effect(
    Operator,
    Effect.gen(function*() {
      const keys = yield* ApiKeys
      const ingestion = yield* Ingestion
      const search = yield* PassageSearch.make
      const documents = yield* DocumentStore.DocumentStore
      const companies = yield* CompanyStore.CompanyStore
      const profileOf = yield* CompanyProfiles.make
      const fs = yield* FileSystem.FileSystem
      const httpClient = yield* HttpClient.HttpClient
      return Operator.of({
        description: "database",
        search: (params) => search.search(params).pipe(Effect.mapError(fromError)),
        ask: (request) =>
          Effect.gen(function*() {
            const answerer = yield* Answering.make(yield* chatModel)
            return Answering.answerOf(yield* answerer.ask(request))
          }).pipe(
            Effect.provideService(PassageSearch.PassageSearch, search),
            Effect.provideService(DocumentStore.DocumentStore, documents),
            Effect.provideService(HttpClient.HttpClient, httpClient),
            Effect.mapError(fromError)
          ),
        createKey: (request) =>
          keys.create({ name: request.name, plan: request.plan, rateLimit: request.rate_limit }).pipe(
            Effect.mapError(fromError)
          ),
        listKeys: Effect.mapError(keys.list, fromError),
        revokeKey: (id) =>
          keys.revoke(id).pipe(
            Effect.mapError(fromError),
            Effect.flatMap(Option.match({ onNone: () => Effect.fail(noSuchKey(id)), onSome: Effect.succeed }))
          ),
        ingestFile: (path, overrides) =>
          readFile(path).pipe(
            Effect.flatMap((bytes) => ingestion.ingest({ fileName: basename(path), bytes, overrides })),
            Effect.mapError(fromError),
            Effect.provideService(FileSystem.FileSystem, fs)
          ),
        ingestBytes: (fileName, bytes, overrides) =>
          ingestion.ingest({ fileName, bytes, overrides }).pipe(Effect.mapError(fromError)),
        saveListing: (listed) => companies.saveListing(listed).pipe(Effect.mapError(fromError)),
        showCompany: (ticker) =>
          profileOf(ticker).pipe(
            Effect.mapError(fromError),
            Effect.flatMap(Option.match({
              onNone: () => Effect.fail(fromError(ApiError.CompanyNotFound.forTicker(ticker))),
              onSome: Effect.succeed
            }))
          )
      })
    })
  )

/** Works through the `/admin` routes of the server at `url`, with the given `HttpClient`. */
export const layerRemote = (url: string, adminToken: Redacted.Redacted<string>) =>
  Layer.effect(
    Operator,
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const client = yield* HttpApiClient.make(Api.FilingsApi, {
        baseUrl: url,
        transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(Redacted.value(adminToken)))
      })
      // Transport failures carry URLs and stack details; say what matters to the operator.
      const remote = <A, E extends { readonly _tag: string; readonly message: string }>(effect: Effect.Effect<A, E>) =>
        Effect.mapError(effect, (error) =>
          error._tag === "RequestError" || error._tag === "ResponseError"
            ? new CliFailure({ message: `the server at ${url} did not answer: ${error.message}` })
            : fromError(error))
      const upload = (fileName: string, bytes: Uint8Array, overrides: Overrides) => {
        const form = new FormData()
        form.append("file", new Blob([bytes]), fileName)
        for (const [field, value] of Object.entries(overrides)) {
          if (value !== undefined) form.append(field, String(value))
        }
        return remote(client.admin.ingestFile({ payload: form }))
      }
      return Operator.of({
        description: `server at ${url}`,
        search: (params) => remote(client.admin.search({ urlParams: params })),
        ask: (request) => remote(client.admin.chat({ payload: request })),
        createKey: (request) => remote(client.admin.createApiKey({ payload: request })),
        listKeys: remote(Effect.map(client.admin.listApiKeys(), (list) => list.keys)),
        revokeKey: (id) =>
          remote(client.admin.revokeApiKey({ path: { key_id: id } })).pipe(
            Effect.mapError((error) => (error.message.startsWith("no API key") ? noSuchKey(id) : error))
          ),
        ingestFile: (path, overrides) =>
          readFile(path).pipe(
            Effect.flatMap((bytes) => upload(basename(path), bytes, overrides)),
            Effect.provideService(FileSystem.FileSystem, fs)
          ),
        ingestBytes: upload,
        showCompany: (ticker) => remote(client.companiesAdmin.showCompany({ path: { ticker } })),
        saveListing: (listed) =>
          remote(
            client.companiesAdmin.saveCompanyListing({ payload: new Company.CompanyListing({ companies: listed }) })
          )
      })
    })
  )
