/**
 * @filings/webhook-signer: sign and verify Filings webhook deliveries with Web Crypto alone, on
 * Node.js, Deno, Bun, browsers and edge workers.
 */
export * as WebhookDelivery from "./WebhookDelivery.js"
export * as WebhookSignature from "./WebhookSignature.js"
