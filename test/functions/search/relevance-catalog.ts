/**
 * A realistic catalogue for measuring search quality: 110 tools across text, data, media, web,
 * devops, documents, maths, geo, security and ML, each with a man page, and 32 labelled queries
 * written the way an agent or a person asks (paraphrased, not copied from descriptions).
 * `scaledCatalog(n)` grows it to any size for the benchmark with plausible variants.
 */
import type { SearchToolSpec } from "./search-bundles.js";

type Row = [id: string, type: string, tags: string, description: string];

const ROWS: Row[] = [
  ["text-stats", "text-processing", "text nlp statistics", "Counts words in a text and returns the most frequent ones"],
  ["summarizer", "text-processing", "text llm summary", "Condenses long articles and documents into a short abstract of a few sentences"],
  [
    "translator",
    "text-processing",
    "text language i18n",
    "Translates text between English, German, French, Spanish and 40 other languages",
  ],
  [
    "sentiment-analyzer",
    "text-processing",
    "text nlp classification",
    "Classifies the sentiment of reviews or messages as positive, negative or neutral",
  ],
  ["keyword-extractor", "text-processing", "text nlp seo", "Extracts the key phrases and topics of a document ranked by importance"],
  ["spell-checker", "text-processing", "text grammar", "Finds spelling and grammar mistakes and suggests corrections"],
  ["language-detector", "text-processing", "text nlp language", "Identifies which human language a piece of text is written in"],
  ["text-diff", "text-processing", "text compare", "Shows line by line differences between two versions of a text"],
  ["markdown-to-html", "documents", "markdown html convert", "Renders Markdown documents to sanitised HTML"],
  ["html-to-text", "web", "html text scrape", "Strips tags and scripts from HTML and keeps readable plain text"],
  ["slugify", "text-processing", "text url", "Turns titles into lowercase URL-safe slugs"],
  ["regex-tester", "devops", "regex text", "Tests a regular expression against sample strings and lists the capture groups"],
  ["readability-score", "text-processing", "text education", "Scores how easy a text is to read with Flesch-Kincaid and grade levels"],
  ["profanity-filter", "text-processing", "text moderation", "Masks offensive and abusive words in user generated content"],
  ["entity-extractor", "text-processing", "text nlp ner", "Finds people, organisations, places and dates mentioned in a text"],
  ["csv-to-json", "data", "csv json convert", "Converts CSV spreadsheets into an array of JSON records"],
  ["json-validator", "data", "json schema validation", "Validates JSON documents against a JSON Schema and reports every violation"],
  ["yaml-to-json", "data", "yaml json convert", "Converts YAML configuration files to JSON and back"],
  ["xml-parser", "data", "xml parse", "Parses XML into a JSON tree with attributes and namespaces"],
  ["parquet-reader", "data", "parquet analytics", "Reads Apache Parquet files and returns rows and the column schema"],
  ["excel-reader", "data", "excel xlsx spreadsheet", "Reads sheets from Excel xlsx workbooks as tables"],
  ["deduplicator", "data", "data cleaning", "Removes duplicate records from a dataset using fuzzy matching on chosen columns"],
  ["csv-profiler", "data", "csv statistics", "Profiles the columns of a CSV file: types, missing values, min, max and distributions"],
  ["jsonpath-query", "data", "json query", "Selects values from a JSON document with JSONPath expressions"],
  ["sql-formatter", "devops", "sql format", "Pretty-prints SQL statements with consistent indentation and keyword case"],
  ["sqlite-query", "data", "sql database sqlite", "Runs read-only SQL queries against a SQLite database file"],
  ["image-resize", "media", "image resize photo", "Resizes and crops images and photos to a target width and height"],
  ["image-ocr", "media", "image ocr text", "Recognises printed and handwritten characters in scanned images and photos"],
  ["image-compress", "media", "image optimise", "Shrinks JPEG and PNG file size with lossy or lossless compression"],
  ["image-convert", "media", "image format", "Converts images between PNG, JPEG, WebP, GIF and TIFF"],
  ["thumbnail-maker", "media", "image preview", "Creates small preview thumbnails for galleries"],
  ["exif-reader", "media", "image metadata", "Reads camera EXIF metadata such as GPS position, lens and capture time"],
  ["qr-code-generator", "media", "qr barcode", "Encodes a link or text as a QR code image"],
  ["barcode-reader", "media", "barcode scan", "Decodes EAN, UPC and Code128 barcodes found in a picture"],
  ["audio-transcriber", "media", "audio speech transcription", "Turns speech in recordings, podcasts and calls into written text"],
  ["audio-converter", "media", "audio format", "Converts audio between MP3, WAV, FLAC and OGG"],
  ["video-frame-extractor", "media", "video frames", "Grabs still frames from a video at given timestamps or intervals"],
  ["video-trimmer", "media", "video edit", "Cuts a clip out of a video between a start and an end time"],
  ["gif-maker", "media", "gif animation", "Builds an animated GIF from a sequence of images"],
  ["color-palette", "media", "image color design", "Extracts the dominant colours of an image as a palette"],
  ["background-remover", "media", "image segmentation", "Cuts the subject out of a photo and makes the background transparent"],
  ["http-fetch", "web", "http download", "Downloads a web page or API response over HTTP with headers and timeouts"],
  ["web-scraper", "web", "scrape crawl html", "Crawls pages and extracts fields with CSS selectors"],
  ["url-shortener", "web", "url link", "Creates short aliases for long links"],
  ["link-checker", "web", "seo links", "Crawls a website and reports dead links and redirects"],
  ["rss-reader", "web", "rss feed news", "Fetches RSS and Atom feeds and returns the latest entries"],
  ["sitemap-generator", "web", "seo sitemap", "Builds an XML sitemap by crawling a site"],
  ["dns-lookup", "web", "dns network", "Resolves A, AAAA, MX, TXT and CNAME records for a domain"],
  ["whois-lookup", "web", "domain registration", "Shows the registrar, owner and expiry date of a domain name"],
  ["tls-certificate-checker", "web", "tls ssl security", "Checks a site's TLS certificate chain and days until expiry"],
  ["uptime-monitor", "devops", "monitoring http", "Pings endpoints periodically and reports downtime and latency"],
  ["commit-scribe", "devops", "git commit", "Writes a conventional commit message from a staged diff"],
  ["code-reviewer", "devops", "code review llm", "Reviews a pull request diff and comments on bugs and style"],
  ["python-linter", "devops", "python lint", "Runs static analysis on Python source and reports style and bug warnings"],
  ["js-formatter", "devops", "javascript format", "Formats JavaScript and TypeScript source with Prettier rules"],
  ["dependency-auditor", "devops", "security dependencies", "Checks package lockfiles for dependencies with known vulnerabilities"],
  ["dockerfile-linter", "devops", "docker lint", "Flags bad practices in Dockerfiles such as unpinned base images"],
  ["log-detective", "devops", "logs errors", "Scans application logs for exceptions and groups recurring failures"],
  ["stacktrace-parser", "devops", "debugging", "Parses stack traces from Java, Python and Node into structured frames"],
  ["cron-explainer", "devops", "cron schedule", "Explains a crontab schedule in plain English and lists the next run times"],
  ["semver-bumper", "devops", "release versioning", "Computes the next semantic version from a change type"],
  ["license-checker", "devops", "license compliance", "Lists the open source licences of a project's dependencies"],
  ["secret-scanner", "security", "secrets credentials", "Detects leaked API keys, tokens and passwords in source code"],
  ["coverage-reporter", "devops", "testing coverage", "Summarises test coverage reports per file and flags untested code"],
  ["k8s-manifest-validator", "devops", "kubernetes yaml", "Validates Kubernetes manifests against the cluster API schemas"],
  ["terraform-plan-summary", "devops", "terraform infrastructure", "Summarises a Terraform plan: resources created, changed and destroyed"],
  ["email-sender", "communication", "email smtp", "Sends an email with attachments through SMTP"],
  ["slack-notifier", "communication", "slack chat", "Posts a message to a Slack channel through a webhook"],
  ["sms-sender", "communication", "sms phone", "Sends text messages to mobile phone numbers"],
  ["calendar-scheduler", "communication", "calendar meetings", "Finds free slots and books meetings in shared calendars"],
  ["meeting-notes", "communication", "meetings llm", "Turns a meeting transcript into notes with decisions and action items"],
  ["email-classifier", "communication", "email triage", "Sorts incoming mail into support, sales, spam and billing"],
  ["invoice-generator", "documents", "invoice billing pdf", "Creates PDF invoices from line items, taxes and customer details"],
  ["pdf-merger", "documents", "pdf merge", "Combines several PDF files into a single document"],
  ["pdf-text-extractor", "documents", "pdf text", "Pulls the text content and page layout out of PDF files"],
  ["pdf-splitter", "documents", "pdf split", "Splits a PDF into separate files by page ranges"],
  ["docx-to-pdf", "documents", "word docx convert", "Converts Word documents to PDF"],
  ["e-signature", "documents", "signature contracts", "Sends contracts out for electronic signature and tracks their status"],
  ["binary-increment", "utility", "math binary go", "Increments a number by a configurable step"],
  ["unit-converter", "math", "units measurement", "Converts between metric and imperial units of length, weight and temperature"],
  ["currency-converter", "finance", "currency forex", "Converts amounts between currencies at the latest exchange rates"],
  ["loan-calculator", "finance", "loan mortgage", "Computes monthly repayments and the amortisation schedule of a loan"],
  ["statistics-calculator", "math", "statistics", "Computes mean, median, standard deviation and percentiles of a list of numbers"],
  ["equation-solver", "math", "algebra", "Solves linear and quadratic equations and systems of equations symbolically"],
  ["prime-checker", "math", "number theory", "Tests whether an integer is prime and factorises it"],
  ["random-generator", "math", "random", "Draws random integers, floats and samples from distributions with an optional seed"],
  ["stock-quote", "finance", "stocks market", "Returns the latest share price and daily change for a ticker symbol"],
  ["crypto-price", "finance", "crypto bitcoin", "Returns current prices of Bitcoin, Ethereum and other cryptocurrencies"],
  ["tax-estimator", "finance", "tax income", "Estimates income tax owed from salary and deductions"],
  ["weather-forecast", "geo", "weather forecast", "Gives the temperature, rain and wind forecast for a city for the next seven days"],
  ["geocoder", "geo", "maps address", "Turns a street address into latitude and longitude coordinates and back"],
  ["timezone-converter", "geo", "time timezone", "Converts a date and time between time zones"],
  ["distance-calculator", "geo", "maps distance", "Computes the great-circle distance between two coordinates"],
  ["route-planner", "geo", "maps directions", "Plans driving, cycling or walking directions between places"],
  ["air-quality", "geo", "pollution environment", "Reports the air quality index and pollutant levels for a location"],
  ["password-generator", "security", "password", "Generates strong random passphrases and passwords"],
  ["hash-calculator", "security", "hash checksum", "Computes MD5, SHA-1 and SHA-256 digests of files or strings"],
  ["jwt-decoder", "security", "jwt auth token", "Decodes JSON Web Tokens and verifies their signature and expiry"],
  ["file-encryptor", "security", "encryption aes", "Encrypts and decrypts files with AES-256 and a passphrase"],
  ["uuid-generator", "utility", "uuid identifiers", "Generates UUIDs of version 4 and 7"],
  ["base64-codec", "utility", "encoding base64", "Encodes and decodes Base64 and URL-safe Base64"],
  ["text-embedder", "ml", "embeddings vectors", "Turns sentences into embedding vectors for semantic similarity"],
  ["image-classifier", "ml", "image vision classification", "Labels what an image shows, such as animals, vehicles or food"],
  ["vector-search", "ml", "vectors similarity", "Finds the nearest neighbours of an embedding in a vector index"],
  ["anomaly-detector", "ml", "metrics monitoring", "Detects unusual spikes and drops in time series metrics"],
  ["forecaster", "ml", "time series prediction", "Predicts future values of a time series such as sales or traffic"],
  ["json-to-csv", "data", "json csv convert", "Flattens arrays of JSON objects into CSV tables"],
  ["chart-maker", "data", "charts visualisation", "Draws bar, line and pie charts from tabular data as PNG or SVG"],
];

/** Query → the tool a good search must rank first or near the top. */
export const LABELLED_QUERIES: [query: string, expected: string][] = [
  ["how many words are in this text?", "text-stats"],
  ["shorten a long article into a few sentences", "summarizer"],
  ["translate this paragraph from english to german", "translator"],
  ["is this customer review positive or negative", "sentiment-analyzer"],
  ["turn a csv spreadsheet into json", "csv-to-json"],
  ["check a json file against a schema", "json-validator"],
  ["make a photo smaller", "image-resize"],
  ["read the characters in a scanned image", "image-ocr"],
  ["transcribe a podcast recording", "audio-transcriber"],
  ["grab frames from a video", "video-frame-extractor"],
  ["download a web page", "http-fetch"],
  ["find dead links on my website", "link-checker"],
  ["write a commit message for my diff", "commit-scribe"],
  ["find exceptions in application logs", "log-detective"],
  ["lint python code", "python-linter"],
  ["send an email with an attachment", "email-sender"],
  ["post a message to a slack channel", "slack-notifier"],
  ["combine several pdf files into one", "pdf-merger"],
  ["get the text out of a pdf", "pdf-text-extractor"],
  ["increment a counter", "binary-increment"],
  ["convert miles to kilometres", "unit-converter"],
  ["usd to eur exchange rate", "currency-converter"],
  ["rain forecast for paris this week", "weather-forecast"],
  ["latitude and longitude of a street address", "geocoder"],
  ["generate a strong password", "password-generator"],
  ["decode a jwt", "jwt-decoder"],
  ["sha256 checksum of a file", "hash-calculator"],
  ["detect unusual spikes in metrics", "anomaly-detector"],
  ["what does this cron schedule mean", "cron-explainer"],
  ["scan source code for leaked api keys", "secret-scanner"],
  ["make a qr code for a link", "qr-code-generator"],
  ["which language is this text written in", "language-detector"],
];

export interface CatalogTool extends SearchToolSpec {
  tool_search_description: string;
  tool_tags: string[];
  tool_type: string;
  tool_man_page_doc: string;
}

export function relevanceCatalog(): CatalogTool[] {
  return ROWS.map(([id, type, tags, description]) => tool(id, type, tags.split(" "), description));
}

/** `n` tools: the catalogue, then variants (`<id>-v<k>`) with reworded descriptions and longer man pages. */
export function scaledCatalog(n: number): CatalogTool[] {
  const tools: CatalogTool[] = [];
  for (let k = 0; tools.length < n; k++) {
    for (const [index, [id, type, tags, description]] of ROWS.entries()) {
      if (tools.length >= n) break;
      if (k === 0) {
        tools.push(tool(id, type, tags.split(" "), description));
        continue;
      }
      const flavour = FLAVOURS[(index + k) % FLAVOURS.length]!;
      const other = ROWS[(index * 7 + k * 13) % ROWS.length]![3];
      tools.push(tool(`${id}-v${k}`, type, [...tags.split(" "), flavour.split(" ")[0]!], `${description} ${flavour}`, other));
    }
  }
  return tools;
}

const FLAVOURS = [
  "for teams",
  "with batch support",
  "running fully offline",
  "for enterprise accounts",
  "with streaming output",
  "tuned for large inputs",
  "with a REST interface",
  "for mobile apps",
  "with audit logging",
  "for cloud storage buckets",
  "with caching",
  "for command line use",
  "with retries and backoff",
  "for spreadsheets",
  "in multiple languages",
];

function tool(id: string, type: string, tags: string[], description: string, seeAlso?: string): CatalogTool {
  return {
    tool_id: id,
    tool_type: type,
    tool_tags: tags,
    tool_search_description: description,
    tool_man_page_doc: manPage(id, description, seeAlso),
  };
}

/** A man page shaped like docs/authoring.md's: title, summary, input and output, an example, notes. */
function manPage(id: string, description: string, seeAlso?: string): string {
  return [
    `# ${id}`,
    "",
    `${description}.`,
    "",
    "## Input",
    "A JSON object; see `tool_api_spec.entrypoints.execute.input` for the fields and their types.",
    "",
    "## Output",
    "A JSON object with the result, or an `error` field describing what went wrong.",
    "",
    "## Example",
    "```json",
    `{"tool": "${id}", "input": {}}`,
    "```",
    "",
    "## Notes",
    "Runs locally on the agent's host. Large inputs are processed in chunks; errors are reported, never hidden.",
    ...(seeAlso === undefined ? [] : ["", `Often combined with a tool that ${seeAlso.charAt(0).toLowerCase()}${seeAlso.slice(1)}.`]),
    "",
  ].join("\n");
}
