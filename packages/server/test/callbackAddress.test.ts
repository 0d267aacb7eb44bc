import { assert, describe, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import type * as dns from "node:dns"
import * as net from "node:net"
import * as CallbackAddress from "../src/webhooks/CallbackAddress.js"

const allowList = (text: string): CallbackAddress.AllowList =>
  Either.getOrThrowWith(CallbackAddress.parseAllowList(text), (reason) => new Error(reason))

const nothingAllowed = allowList("")

/** A resolver answering fixed addresses, so no test depends on real DNS. */
const answering = (...addresses: ReadonlyArray<string>): CallbackAddress.Resolver => () =>
  Promise.resolve(addresses.map((address) => ({ address, family: net.isIP(address) })))

/** The refusal's reason, failing the test when the callback was not refused. */
const refusal = (url: string, options: CallbackAddress.CheckOptions = { allow: nothingAllowed }) =>
  Effect.flip(CallbackAddress.checkCallback(url, options)).pipe(
    Effect.tap((error) => assert.strictEqual(error._tag, "RefusedCallback")),
    Effect.map((error) => error.reason)
  )

describe("CallbackAddress", () => {
  it.effect("refuses anything but https and URLs carrying credentials", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* refusal("http://hooks.example/"), "only https:// callbacks are allowed")
      assert.strictEqual(yield* refusal("ftp://hooks.example/"), "only https:// callbacks are allowed")
      assert.strictEqual(yield* refusal("not a url"), "not a valid URL")
      assert.strictEqual(yield* refusal("https://user:pass@hooks.example/"), "credentials in the URL are not allowed")
      assert.strictEqual(yield* refusal("https://user@hooks.example/"), "credentials in the URL are not allowed")
    }))

  it.effect("refuses IP literals in blocked ranges, naming the range", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["https://127.0.0.1/", "127.0.0.1 is a loopback address"],
        ["https://[::1]:8443/hook", "::1 is a loopback address"],
        ["https://169.254.169.254/latest/meta-data", "169.254.169.254 is a metadata address"],
        ["https://169.254.1.1/", "169.254.1.1 is a link-local address"],
        ["https://10.0.0.1/", "10.0.0.1 is a private address"],
        ["https://[::ffff:127.0.0.1]/", "::ffff:7f00:1 is an IPv4-mapped address"],
        ["https://[::ffff:8.8.8.8]/", "::ffff:808:808 is an IPv4-mapped address"],
        ["https://[fd00::1]/", "fd00::1 is a unique-local address"],
        ["https://[fe80::1]/", "fe80::1 is a link-local address"],
        ["https://[fd00:ec2::254]/", "fd00:ec2::254 is a metadata address"],
        ["https://100.64.1.1/", "100.64.1.1 is a carrier-grade NAT address"],
        ["https://0.0.0.0/", "0.0.0.0 is an unspecified address"],
        ["https://[::]/", ":: is an unspecified address"],
        ["https://[64:ff9b::10.0.0.1]/", "64:ff9b::a00:1 is a private address"],
        ["https://[2001:db8::1]/", "2001:db8::1 is a documentation address"],
        // The URL parser turns these spellings into dotted quads before the check sees them.
        ["https://0x7f.1/", "127.0.0.1 is a loopback address"],
        ["https://2130706433/", "127.0.0.1 is a loopback address"]
      ]
      for (const [url, reason] of cases) assert.strictEqual(yield* refusal(url), reason, url)
    }))

  it.effect("isBlockedAddress names ranges and lets public addresses through", () =>
    Effect.sync(() => {
      const cases: ReadonlyArray<readonly [string, string | undefined]> = [
        ["172.31.255.255", "private"],
        ["172.32.0.1", undefined],
        ["192.168.1.1", "private"],
        ["192.0.0.8", "IETF protocol"],
        ["198.19.0.1", "benchmarking"],
        ["224.0.0.1", "multicast"],
        ["255.255.255.255", "broadcast"],
        ["240.0.0.1", "reserved"],
        ["ff02::1", "multicast"],
        ["64:ff9b::8.8.8.8", undefined],
        ["64:ff9b::169.254.169.254", "metadata"],
        ["fe80::1%eth0", "link-local"],
        ["2606:4700::1111%eth0", "scoped"],
        ["8.8.8.8", undefined],
        ["2606:4700:4700::1111", undefined],
        ["010.0.0.1", "invalid"],
        ["hooks.example", "invalid"]
      ]
      for (const [address, name] of cases) assert.strictEqual(CallbackAddress.isBlockedAddress(address), name, address)
    }))

  it.effect("refuses a name resolving to a blocked address, even one among public ones", () =>
    Effect.gen(function*() {
      assert.strictEqual(
        yield* refusal("https://x.example/", { allow: nothingAllowed, resolve: answering("10.1.2.3") }),
        "x.example resolves to 10.1.2.3, a private address"
      )
      assert.strictEqual(
        yield* refusal("https://x.example/", {
          allow: nothingAllowed,
          resolve: answering("93.184.215.14", "192.168.0.7")
        }),
        "x.example resolves to 192.168.0.7, a private address"
      )
      const error = yield* Effect.flip(
        CallbackAddress.checkCallback("https://x.example/", { allow: nothingAllowed, resolve: answering("::1") })
      )
      assert.strictEqual(error.message, "https://x.example/ is refused: x.example resolves to ::1, a loopback address")
    }))

  it.effect("a public name passes, pinned to its first address", () =>
    Effect.gen(function*() {
      const checked = yield* CallbackAddress.checkCallback("https://Hooks.Example:8443/in?x=1", {
        allow: nothingAllowed,
        resolve: answering("2606:4700::6810:85e5", "93.184.215.14")
      })
      assert.deepStrictEqual(
        [checked.url.href, checked.address, checked.family],
        ["https://hooks.example:8443/in?x=1", "2606:4700::6810:85e5", 6]
      )
      const literal = yield* CallbackAddress.checkCallback("https://93.184.215.14/", { allow: nothingAllowed })
      assert.deepStrictEqual([literal.address, literal.family], ["93.184.215.14", 4])
    }))

  it.effect("a name that cannot be resolved is refused", () =>
    Effect.gen(function*() {
      const failing: CallbackAddress.Resolver = () =>
        Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" }))
      assert.strictEqual(
        yield* refusal("https://gone.example/", { allow: nothingAllowed, resolve: failing }),
        "gone.example cannot be resolved (ENOTFOUND)"
      )
      assert.strictEqual(
        yield* refusal("https://empty.example/", { allow: nothingAllowed, resolve: answering() }),
        "empty.example cannot be resolved (no addresses)"
      )
      assert.strictEqual(
        yield* refusal("https://odd.example/", { allow: nothingAllowed, resolve: answering("not-an-ip") }),
        "odd.example resolves to not-an-ip, an invalid address"
      )
    }))

  it.effect("the real resolver refuses localhost, which resolves to loopback", () =>
    Effect.gen(function*() {
      const reason = yield* refusal("https://localhost/")
      assert.match(reason, /^localhost resolves to (127\.0\.0\.1|::1), a loopback address$/)
    }))

  it.effect("the allow-list opens named hosts and ranges, and nothing else", () =>
    Effect.gen(function*() {
      const allow = allowList(" LocalHost , hooks.internal., 127.0.0.0/8 ,, [::1]")
      const byName = yield* CallbackAddress.checkCallback("https://localhost:9443/", {
        allow,
        resolve: answering("127.0.0.1")
      })
      assert.deepStrictEqual([byName.address, byName.family], ["127.0.0.1", 4])
      const internal = yield* CallbackAddress.checkCallback("https://HOOKS.internal/", {
        allow,
        resolve: answering("10.9.8.7")
      })
      assert.strictEqual(internal.address, "10.9.8.7")
      const byRange = yield* CallbackAddress.checkCallback("https://127.0.0.1/", { allow })
      assert.strictEqual(byRange.address, "127.0.0.1")
      const v6 = yield* CallbackAddress.checkCallback("https://[::1]/", { allow })
      assert.deepStrictEqual([v6.address, v6.family], ["::1", 6])
      // An unnamed host resolving into an allowed range passes; outside it, still refused.
      const intoRange = yield* CallbackAddress.checkCallback("https://dev.example/", {
        allow,
        resolve: answering("127.0.0.2")
      })
      assert.strictEqual(intoRange.address, "127.0.0.2")
      assert.strictEqual(
        yield* refusal("https://dev.example/", { allow, resolve: answering("127.0.0.2", "10.0.0.1") }),
        "dev.example resolves to 10.0.0.1, a private address"
      )
      assert.strictEqual(yield* refusal("https://10.0.0.1/", { allow }), "10.0.0.1 is a private address")
      // Exact names only: a subdomain of an allowed host is checked as usual.
      assert.strictEqual(
        yield* refusal("https://evil.hooks.internal/", { allow, resolve: answering("10.9.8.7") }),
        "evil.hooks.internal resolves to 10.9.8.7, a private address"
      )
    }))

  it.effect("refusalOf refuses without resolving: schemes, credentials and blocked literals, not names", () =>
    Effect.sync(() => {
      for (
        const [url, refused] of [
          ["http://hooks.example/", "only https:// callbacks are allowed"],
          ["https://a:b@hooks.example/", "credentials in the URL are not allowed"],
          ["https://127.0.0.1:8443/", "127.0.0.1 is a loopback address"],
          ["https://169.254.169.254/latest", "169.254.169.254 is a metadata address"],
          ["https://[::ffff:10.0.0.1]/", "::ffff:a00:1 is an IPv4-mapped address"]
        ] as const
      ) {
        assert.strictEqual(CallbackAddress.refusalOf(url, nothingAllowed), refused, url)
      }
      assert.isUndefined(CallbackAddress.refusalOf("https://8.8.8.8/", nothingAllowed))
      // Names are judged at delivery time, where their answers are current.
      assert.isUndefined(CallbackAddress.refusalOf("https://localhost/", nothingAllowed))
      assert.isUndefined(CallbackAddress.refusalOf("https://127.0.0.1/", allowList("127.0.0.0/8")))
    }))

  it.effect("parseAllowList names the entry it rejects", () =>
    Effect.sync(() => {
      const rejected = CallbackAddress.parseAllowList("localhost,10.0.0.0/33")
      assert.strictEqual(
        Either.isLeft(rejected) ? rejected.left : undefined,
        "allow-list entry \"10.0.0.0/33\" is invalid: the prefix must be a number from 0 to 32"
      )
      for (
        const bad of ["not a host!", "10.0.0.0/33", "::1/129", "10.0.0.0/x", "300.1.1.1/8", "1.2.3", "host:8080", "*.x"]
      ) {
        const parsed = CallbackAddress.parseAllowList(`localhost,${bad}`)
        assert.isTrue(Either.isLeft(parsed) && parsed.left.includes(`"${bad}"`), bad)
      }
      const empty = CallbackAddress.parseAllowList(undefined)
      assert.isTrue(Either.isRight(empty) && empty.right.hosts.size === 0)
    }))

  it.effect("pinnedLookup answers the checked address in both of node's shapes", () =>
    Effect.gen(function*() {
      const checked = yield* CallbackAddress.checkCallback("https://hooks.example/", {
        allow: nothingAllowed,
        resolve: answering("93.184.215.14")
      })
      const lookup = CallbackAddress.pinnedLookup(checked)
      const call = (hostname: string, options: dns.LookupOptions) =>
        new Promise<readonly [NodeJS.ErrnoException | null, unknown, unknown]>((resolve) =>
          lookup(hostname, options, (error, address, family) => resolve([error, address, family]))
        )
      const single = yield* Effect.promise(() => call("hooks.example", { family: 0 }))
      assert.deepStrictEqual(single, [null, "93.184.215.14", 4])
      const all = yield* Effect.promise(() => call("HOOKS.example", { all: true }))
      assert.deepStrictEqual(all, [null, [{ address: "93.184.215.14", family: 4 }], undefined])
      const other = yield* Effect.promise(() => call("other.example", { all: true }))
      assert.strictEqual(other[0]?.code, "ENOTFOUND")
    }))

  it.effect("net.connect with pinnedLookup reaches the pinned address, not the name's", () =>
    Effect.gen(function*() {
      // An allow-listed name pinned to loopback: node's own connect logic calls the lookup, with and
      // without Happy Eyeballs (`all: true`), and must land on the local server.
      const server = net.createServer((socket) => socket.end())
      yield* Effect.acquireRelease(
        Effect.async<void>((resume) => {
          server.listen(0, "127.0.0.1", () => resume(Effect.void))
        }),
        () =>
          Effect.async<void>((resume) => {
            server.close(() => resume(Effect.void))
          })
      )
      const port = (server.address() as net.AddressInfo).port
      const checked = yield* CallbackAddress.checkCallback(`https://pinned.example:${port}/`, {
        allow: allowList("pinned.example"),
        resolve: answering("127.0.0.1")
      })
      const pinned = CallbackAddress.pinnedLookup(checked)
      const askedForAll: Array<boolean> = []
      const recording: net.LookupFunction = (hostname, options, callback) => {
        askedForAll.push(options.all === true)
        pinned(hostname, options, callback)
      }
      const connectTo = (autoSelectFamily: boolean) =>
        Effect.async<string, Error>((resume) => {
          const socket = net.connect({
            host: "pinned.example",
            port,
            autoSelectFamily,
            lookup: recording
          })
          socket.once("connect", () => {
            resume(Effect.succeed(socket.remoteAddress ?? ""))
            socket.destroy()
          })
          socket.once("error", (error) => resume(Effect.fail(error)))
        })
      assert.strictEqual(yield* connectTo(true), "127.0.0.1")
      assert.strictEqual(yield* connectTo(false), "127.0.0.1")
      assert.deepStrictEqual(askedForAll, [true, false])
    }).pipe(Effect.scoped))
})
