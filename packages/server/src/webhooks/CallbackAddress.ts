/**
 * Decides whether a customer-given webhook URL may be called, and to which address: the guard that
 * keeps webhook delivery from being turned against the operator's own network (SSRF).
 *
 * Only `https:` URLs without credentials pass. The host is resolved at delivery time and refused when
 * any of its addresses lies in a loopback, private, link-local, unique-local, IPv4-mapped, metadata or
 * other non-public range. The checked address is returned so the sender connects to exactly it
 * (`pinnedLookup`): resolving again when connecting would let a name answer a public address to the
 * check and a private one to the connection (DNS rebinding). The operator's allow-list (given by the
 * caller, `parseAllowList`) opens named hosts or CIDR ranges for tests and private deployments.
 * Redirects are the sender's concern: it follows none.
 */
import { Effect, Either, Schema } from "effect"
import * as dns from "node:dns"
import * as net from "node:net"

/**
 * Hosts (exact, case-insensitive names) and address ranges the operator opened despite the rule. Node's
 * BlockList also matches the IPv4-mapped form of an allowed IPv4 address (`::ffff:127.0.0.1` for
 * `127.0.0.0/8`): the same host, so it is allowed too.
 */
export interface AllowList {
  readonly hosts: ReadonlySet<string>
  readonly ranges: net.BlockList
}

export class RefusedCallback extends Schema.TaggedError<RefusedCallback>()("RefusedCallback", {
  url: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `${this.url} is refused: ${this.reason}`
  }
}

/** The URL to call and the address to connect to: the sender must not resolve the host again. */
export interface CheckedCallback {
  readonly url: URL
  readonly address: string
  readonly family: 4 | 6
}

/** Resolves a host name to its addresses; `dns.promises.lookup` unless a test injects another. */
export type Resolver = (host: string) => Promise<ReadonlyArray<{ readonly address: string; readonly family: number }>>

export interface CheckOptions {
  readonly allow: AllowList
  readonly resolve?: Resolver | undefined
}

// ---------------------------------------------------------------------------------------------------
// Blocked ranges
// ---------------------------------------------------------------------------------------------------

/**
 * IPv4 ranges a webhook must never reach, most specific first: the first match names the refusal, so
 * the metadata address is reported as "metadata" rather than as the link-local range around it.
 * IPv4 documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24) stay open on purpose:
 * they are unrouted, and tests and examples use them as stand-ins for public addresses.
 */
const ipv4Ranges: ReadonlyArray<readonly [name: string, cidrs: ReadonlyArray<string>]> = [
  // AWS, GCP, Azure, Oracle instance metadata; 168.63.129.16 is Azure's platform (WireServer) address.
  ["metadata", ["169.254.169.254/32", "168.63.129.16/32"]],
  // 0.0.0.0 reaches the local host on Linux.
  ["unspecified", ["0.0.0.0/8"]],
  ["loopback", ["127.0.0.0/8"]],
  ["link-local", ["169.254.0.0/16"]],
  ["private", ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"]],
  // RFC 6598 shared address space, inside the provider's network.
  ["carrier-grade NAT", ["100.64.0.0/10"]],
  ["IETF protocol", ["192.0.0.0/24"]],
  ["benchmarking", ["198.18.0.0/15"]],
  ["multicast", ["224.0.0.0/4"]],
  ["broadcast", ["255.255.255.255/32"]],
  ["reserved", ["240.0.0.0/4"]]
]

/**
 * IPv6 ranges, most specific first. IPv4-mapped addresses are refused outright, whatever they embed:
 * a callback has no reason to use them, and they are a classic way to smuggle an IPv4 address past a
 * check written for IPv6.
 */
const ipv6Ranges: ReadonlyArray<readonly [name: string, cidrs: ReadonlyArray<string>]> = [
  ["IPv4-mapped", ["::ffff:0:0/96"]],
  ["metadata", ["fd00:ec2::254/128"]],
  ["unspecified", ["::/128"]],
  ["loopback", ["::1/128"]],
  // Deprecated IPv4-compatible addresses (::a.b.c.d), after :: and ::1 which lie inside the range.
  ["reserved", ["::/96"]],
  ["unique-local", ["fc00::/7"]],
  ["link-local", ["fe80::/10"]],
  ["site-local", ["fec0::/10"]],
  ["multicast", ["ff00::/8"]],
  ["documentation", ["2001:db8::/32"]],
  // RFC 8215 local-use NAT64 prefix: translates into whatever IPv4 network the operator runs.
  ["local-use NAT64", ["64:ff9b:1::/48"]],
  // The well-known NAT64 prefix 64:ff9b::/96 reaches the IPv4 address in its last 32 bits, so it is
  // blocked exactly where that address is: 64:ff9b::10.0.0.0/104 for 10.0.0.0/8, and so on.
  ...ipv4Ranges.map(([name, cidrs]) =>
    [
      name,
      cidrs.map((cidr) => {
        const [address, prefix] = cidr.split("/")
        return `64:ff9b::${address}/${96 + Number(prefix)}`
      })
    ] as const
  )
]

/** `[::1]` (URL host form) to `::1`. */
const unbracket = (host: string): string => host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host

/** Adds `address/prefix` to `list`, or answers why it is not a CIDR range. */
const addSubnet = (list: net.BlockList, cidr: string): string | undefined => {
  const slash = cidr.indexOf("/")
  const address = unbracket(cidr.slice(0, slash))
  const prefix = cidr.slice(slash + 1)
  const family = net.isIP(address)
  if (family === 0 || address.includes("%")) return `"${address}" is not an IP address`
  const bits = family === 4 ? 32 : 128
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) return `the prefix must be a number from 0 to ${bits}`
  list.addSubnet(address, Number(prefix), family === 4 ? "ipv4" : "ipv6")
  return undefined
}

// One BlockList per name, because BlockList answers whether an address matches, not which rule did.
// Node's BlockList matches IPv4-mapped IPv6 addresses against IPv4 rules (and IPv4 addresses against
// ::ffff:0:0/96), so each family is checked only against its own table.
const blockListsOf = (ranges: ReadonlyArray<readonly [string, ReadonlyArray<string>]>) =>
  ranges.map(([name, cidrs]) => {
    const list = new net.BlockList()
    for (const cidr of cidrs) {
      const invalid = addSubnet(list, cidr)
      if (invalid !== undefined) throw new Error(`CallbackAddress: bad built-in range ${cidr}: ${invalid}`)
    }
    return { name, list }
  })

const ipv4BlockLists = blockListsOf(ipv4Ranges)
const ipv6BlockLists = blockListsOf(ipv6Ranges)

/**
 * The name of the blocked range `address` lies in ("loopback", "private", "link-local", "unique-local",
 * "IPv4-mapped", "metadata", ...), `"invalid"` when it is not an IP address, or `undefined` when it is
 * public. A zoned IPv6 address (`fe80::1%eth0`) is judged by its address part, and refused as "scoped"
 * even when that is public: a zone only makes sense on a local link.
 */
export const isBlockedAddress = (address: string): string | undefined => {
  const zone = address.indexOf("%")
  const bare = zone === -1 ? address : address.slice(0, zone)
  // BlockList answers "not listed" for text it cannot parse, so anything that is not an IP is refused
  // here rather than passing as public.
  const family = net.isIP(bare)
  if (family === 0 || (zone !== -1 && family !== 6)) return "invalid"
  const lists = family === 4 ? ipv4BlockLists : ipv6BlockLists
  const match = lists.find(({ list }) => list.check(bare, family === 4 ? "ipv4" : "ipv6"))
  if (match !== undefined) return match.name
  return zone === -1 ? undefined : "scoped"
}

const startsWithVowelSound = new Set(["unspecified", "IPv4-mapped", "invalid", "IETF protocol"])

/** "a private address", "an IPv4-mapped address": the end of a refusal reason. */
const describeRange = (name: string): string => `${startsWithVowelSound.has(name) ? "an" : "a"} ${name} address`

// ---------------------------------------------------------------------------------------------------
// Allow-list
// ---------------------------------------------------------------------------------------------------

/** Lower case without the root's trailing dot: `Hooks.Example.` and `hooks.example` are one host. */
const normalizeHostName = (host: string): string => host.toLowerCase().replace(/\.$/, "")

// LDH labels (underscores tolerated, as internal names use them), 1-63 characters, 253 in all.
// Internationalized names are given in their punycode (xn--) form, which is what URL.hostname holds.
const hostNamePattern =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/
// A URL host whose last label is a number is read as an IPv4 address (`https://10.1/` is 10.0.0.1),
// so such a name in the allow-list could never match a URL's host name: refuse it instead.
const numericLastLabel = /(?:^|\.)(?:0x[0-9a-f]*|\d+)$/

/** Adds one allow-list entry, or answers why it is neither a host name, an IP address nor a range. */
const addAllowEntry = (entry: string, hosts: Set<string>, ranges: net.BlockList): string | undefined => {
  if (entry.includes("/")) return addSubnet(ranges, entry)
  const address = unbracket(entry)
  const family = net.isIP(address)
  if (family !== 0 && !address.includes("%")) {
    ranges.addAddress(address, family === 4 ? "ipv4" : "ipv6")
    return undefined
  }
  const host = normalizeHostName(entry)
  if (!hostNamePattern.test(host) || numericLastLabel.test(host)) {
    return "not a host name, an IP address or a CIDR range"
  }
  hosts.add(host)
  return undefined
}

/**
 * Parses the comma-separated allow-list (`localhost,hooks.internal,10.0.0.0/8,::1/128,127.0.0.1`).
 * Empty entries are skipped; an entry that is not a host name, an IP address or a CIDR range makes
 * the whole list invalid, with a reason naming it: an operator's typo must not silently open or
 * close anything.
 */
export const parseAllowList = (text: string | undefined): Either.Either<AllowList, string> => {
  const hosts = new Set<string>()
  const ranges = new net.BlockList()
  for (const raw of (text ?? "").split(",")) {
    const entry = raw.trim()
    if (entry === "") continue
    const invalid = addAllowEntry(entry, hosts, ranges)
    if (invalid !== undefined) {
      return Either.left(`allow-list entry "${entry}" is invalid: ${invalid}`)
    }
  }
  return Either.right({ hosts, ranges })
}

// ---------------------------------------------------------------------------------------------------
// The check
// ---------------------------------------------------------------------------------------------------

// `verbatim` keeps the resolver's order, so the address pinned is the one the system would prefer.
const systemResolver: Resolver = (host) => dns.promises.lookup(host, { all: true, verbatim: true })

const familyOf = (address: string): 4 | 6 => net.isIP(address.split("%")[0] ?? "") === 4 ? 4 : 6

const isAllowedAddress = (allow: AllowList, address: string): boolean => {
  const family = net.isIP(address)
  return family !== 0 && allow.ranges.check(address, family === 4 ? "ipv4" : "ipv6")
}

/**
 * What is known about a callback URL without resolving it: the parsed URL, or why it is refused (not
 * https, credentials in it, an IP address in a blocked range).
 */
const checkWithoutResolving = (url: string, allow: AllowList): Either.Either<URL, string> => {
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  if (parsed === undefined) return Either.left("not a valid URL")
  if (parsed.protocol !== "https:") return Either.left("only https:// callbacks are allowed")
  // Credentials in a callback URL would be sent to whoever answers; customers sign-verify instead.
  if (parsed.username !== "" || parsed.password !== "") return Either.left("credentials in the URL are not allowed")
  const literal = unbracket(parsed.hostname)
  if (net.isIP(literal) !== 0) {
    const blocked = isAllowedAddress(allow, literal) ? undefined : isBlockedAddress(literal)
    if (blocked !== undefined) return Either.left(`${literal} is ${describeRange(blocked)}`)
  }
  return Either.right(parsed)
}

/**
 * Why a subscription's URL is refused outright, when it is: checked when a subscription is created
 * or changed, so the customer hears at once. A host name is not resolved here: what it resolves to
 * can change, so names are judged at every delivery.
 */
export const refusalOf = (url: string, allow: AllowList): string | undefined =>
  Either.match(checkWithoutResolving(url, allow), { onLeft: (reason) => reason, onRight: () => undefined })

/**
 * Checks a callback URL at delivery time and answers the address to connect to. Every address the
 * host resolves to must pass, not only the one pinned: a name answering one public and one private
 * address would otherwise reach the private one whenever the order changes.
 */
export const checkCallback: (url: string, options: CheckOptions) => Effect.Effect<CheckedCallback, RefusedCallback> =
  Effect.fn("CallbackAddress.checkCallback")(function*(url: string, options: CheckOptions) {
    const refuse = (reason: string) => new RefusedCallback({ url, reason })
    const checked = checkWithoutResolving(url, options.allow)
    if (Either.isLeft(checked)) return yield* refuse(checked.left)
    const parsed = checked.right

    const literal = unbracket(parsed.hostname)
    if (net.isIP(literal) !== 0) return { url: parsed, address: literal, family: familyOf(literal) }

    const host = parsed.hostname
    const resolve = options.resolve ?? systemResolver
    const resolved = yield* Effect.tryPromise({
      try: () => resolve(host),
      catch: (cause) => {
        const code = typeof cause === "object" && cause !== null && "code" in cause ? ` (${String(cause.code)})` : ""
        return refuse(`${host} cannot be resolved${code}`)
      }
    })
    const addresses = resolved.map(({ address }) => address)
    if (addresses.length === 0) return yield* refuse(`${host} cannot be resolved (no addresses)`)

    // A host the operator named is trusted wherever it points; only an IP to pin to is required.
    if (!options.allow.hosts.has(normalizeHostName(host))) {
      for (const address of addresses) {
        const blocked = isAllowedAddress(options.allow, address) ? undefined : isBlockedAddress(address)
        if (blocked !== undefined) return yield* refuse(`${host} resolves to ${address}, ${describeRange(blocked)}`)
      }
    }
    const pinned = addresses.find((address) => net.isIP(address.split("%")[0] ?? "") !== 0)
    if (pinned === undefined) return yield* refuse(`${host} cannot be resolved (no IP address)`)
    return { url: parsed, address: pinned, family: familyOf(pinned) }
  })

/**
 * A `lookup` for `net.connect` / `tls.connect` (and undici's `connect: { lookup }`, which passes it
 * on) that always answers the checked address, so the connection goes where the check looked while
 * TLS still verifies the certificate against the original host name. It answers in both shapes node
 * uses: an array when called with `{ all: true }` (as `net` does for Happy Eyeballs, the default since
 * Node 20), otherwise `(address, family)`. Asked for any other host, it fails with `ENOTFOUND` rather
 * than lend the pinned address to a name that was never checked.
 */
export const pinnedLookup = (checked: CheckedCallback): net.LookupFunction => {
  const expected = normalizeHostName(unbracket(checked.url.hostname))
  return (hostname, options, callback) => {
    if (normalizeHostName(unbracket(hostname)) !== expected) {
      const error: NodeJS.ErrnoException = new Error(`pinned lookup for ${expected} was asked for ${hostname}`)
      error.code = "ENOTFOUND"
      callback(error, "")
      return
    }
    if (options.all === true) callback(null, [{ address: checked.address, family: checked.family }])
    else callback(null, checked.address, checked.family)
  }
}
