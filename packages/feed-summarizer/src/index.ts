/**
 * @filings/feed-summarizer: feed items from financial documents, with highlights that cite the
 * passage they come from.
 */
export * as Categories from "./Categories.js"
export * as ChatCompletionsModel from "./ChatCompletionsModel.js"
export * as Citations from "./Citations.js"
export * as ExtractiveModel from "./ExtractiveModel.js"
export * as FeedSummarizer from "./FeedSummarizer.js"
export { summarize, type SummarizeDocumentOptions, type SummarizeModelOptions } from "./promise.js"
export * as Sentiment from "./Sentiment.js"
export type * from "./Summary.js"
export * as SummaryModel from "./SummaryModel.js"
