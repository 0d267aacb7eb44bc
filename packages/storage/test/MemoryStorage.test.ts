import { MemoryStorage } from "@filings/storage"
import { conformance } from "@filings/storage/testing"

conformance("memory", MemoryStorage.layer)
