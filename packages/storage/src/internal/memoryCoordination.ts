// In-memory Coordination, for tests and a single server process. A budget is a row of start slots,
// as in SQL: a start takes the slot that was used longest ago, when that was a window or more ago.
import { Clock, Duration, Effect, Option } from "effect"
import * as Coordination from "../Coordination.js"

interface Budget {
  // Start time of each slot (epoch ms); a slot never used is -Infinity.
  readonly slots: Array<number>
  pausedUntil: number
}

export const makeCoordination = Effect.sync(() => {
  const budgets = new Map<string, Budget>()
  const leases = new Map<string, Coordination.LeaseHolder>()

  const budgetOf = (name: string, limit: number): Budget => {
    const budget = budgets.get(name) ?? { slots: [], pausedUntil: -Infinity }
    while (budget.slots.length < limit) budget.slots.push(-Infinity)
    budgets.set(name, budget)
    return budget
  }

  const service: Coordination.Service = {
    // Everything below runs synchronously after the clock is read, so concurrent fibers of this
    // process are counted one by one.
    takeStart: (name, limit, window) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const windowMillis = Duration.toMillis(window)
        const budget = budgetOf(name, limit)
        if (budget.pausedUntil > now) return Coordination.waitFor(budget.pausedUntil - now)
        let oldest = 0
        for (let slot = 1; slot < limit; slot++) if (budget.slots[slot]! < budget.slots[oldest]!) oldest = slot
        const freeAt = budget.slots[oldest]! + windowMillis
        if (freeAt > now) return Coordination.waitFor(freeAt - now)
        budget.slots[oldest] = now
        return Coordination.started
      }),
    pauseStarts: (name, duration) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const budget = budgetOf(name, 0)
        budget.pausedUntil = Math.max(budget.pausedUntil, now + Duration.toMillis(duration))
      }),
    acquireLease: (name, holder, duration) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const current = leases.get(name)
        if (current !== undefined && current.holder !== holder && current.expiresAtMillis > now) return false
        leases.set(name, { holder, expiresAtMillis: now + Duration.toMillis(duration) })
        return true
      }),
    releaseLease: (name, holder) =>
      Effect.sync(() => {
        if (leases.get(name)?.holder === holder) leases.delete(name)
      }),
    leaseHolder: (name) =>
      Effect.map(
        Clock.currentTimeMillis,
        (now) => Option.filter(Option.fromNullable(leases.get(name)), (lease) => lease.expiresAtMillis > now)
      )
  }
  return service
})
