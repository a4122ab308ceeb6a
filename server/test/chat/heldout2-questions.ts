/**
 * The fresh held-out question set: questions about two more real Mintlify documentation repositories
 * (fixtures/corpora-heldout: `mem0`, the Mem0 docs, and `hoppscotch`, the Hoppscotch docs; see each
 * `<name>.SOURCE.md`). It exists because the first held-out set (heldout-questions.ts) was run many times
 * while the answerer changed, so it no longer measures generalisation honestly. `pnpm bench:chat` prints it
 * as a third set; nothing in the answering or search code may be tuned to it, and it is run rarely.
 *
 * - Written (and committed) before the answerer or search was first run on these corpora. The questions are
 *   phrased as a user types them: typos ("automaticaly", "databse", "keybord"), paraphrases ("fake an API
 *   endpoint" for a mock server, "bring over" for import), and example names and numbers the docs cannot
 *   contain ("user bob_42", "for Initech", "10 times with a 500 ms pause").
 * - `expected` lists every page path (the search records' `path`) that answers the question; each was
 *   checked by reading the page's text. Citing any one of them counts as right.
 * - Unanswerable questions ask about something plausible whose deciding word is absent from the corpus
 *   (checked by a case-insensitive whole-word search of every record's text and title: Kotlin, Drupal, Kafka,
 *   Elixir, Shopify; SOAP, Jira, Terraform, Bitbucket, Kerberos).
 */
import type { HeldoutAnswerable, HeldoutUnanswerable } from './heldout-questions';

/** The fresh held-out corpora, by directory name under `HELDOUT_CORPUS_DIR` (test/helpers/corpus.ts). */
export const HELDOUT2_CORPORA = ['mem0', 'hoppscotch'] as const;

type Fresh<T> = Omit<T, 'corpus'> & { corpus: (typeof HELDOUT2_CORPORA)[number] };

/** The answerable fresh held-out questions: 22 on mem0, 22 on hoppscotch. */
export const HELDOUT2_ANSWERABLE: readonly Fresh<HeldoutAnswerable>[] = [
  // mem0
  {
    corpus: 'mem0',
    question: 'How do I make a memory for user bob_42 automaticaly disappear after new year 2027?',
    expected: [
      'platform/features/memory-expiration',
      'core-concepts/memory-operations/add',
      'core-concepts/memory-operations/update',
      'api-reference/memory/add-memories',
      'api-reference/memory/update-memory',
    ],
  },
  {
    corpus: 'mem0',
    question: 'Can I store a chat message exactly as written, without mem0 pulling facts out of it?',
    expected: ['platform/features/direct-import', 'core-concepts/memory-operations/add', 'core-concepts/how-it-works', 'api-reference/memory/add-memories', 'platform/cli'],
  },
  {
    corpus: 'mem0',
    question: 'Whats the max number of memories I can delete in one batch call?',
    expected: ['core-concepts/memory-operations/delete', 'platform/platform-vs-oss'],
  },
  {
    corpus: 'mem0',
    question: 'How do I get notified on my server when a memory gets added or changed?',
    expected: ['platform/features/webhooks', 'api-reference/webhook/create-webhook'],
  },
  {
    corpus: 'mem0',
    question: 'How can I dump all memories of customer acme-123 into a structured format for an audit?',
    expected: ['platform/features/memory-export', 'api-reference/memory/create-memory-export', 'cookbooks/essentials/exporting-memories'],
  },
  {
    corpus: 'mem0',
    question: 'Can I run everything locally with Ollama instead of paying for OpenAI?',
    expected: ['components/llms/models/ollama', 'components/embedders/models/ollama', 'cookbooks/companions/local-companion-ollama'],
  },
  {
    corpus: 'mem0',
    question: 'Do I have to deploy Neo4j myself to get graph memory on the hosted platform?',
    expected: ['platform/features/graph-memory', 'migration/platform-v2-to-v3'],
  },
  {
    corpus: 'mem0',
    question: "Which vector databse does the python library use if I don't configure one?",
    expected: ['open-source/overview', 'open-source/python-quickstart', 'open-source/configuration'],
  },
  {
    corpus: 'mem0',
    question: 'How do I keep the vectors in our existing Postgres database?',
    expected: ['components/vectordbs/dbs/pgvector', 'components/vectordbs/config'],
  },
  {
    corpus: 'mem0',
    question: 'how do i turn on reranking of search results',
    expected: ['open-source/features/reranker-search', 'api-reference/memory/search-memories', 'platform/features/advanced-retrieval', 'components/rerankers/config', 'platform/cli'],
  },
  {
    corpus: 'mem0',
    question: 'How do I run the mem0 REST server in docker on my own box?',
    expected: ['open-source/features/rest-api', 'open-source/setup'],
  },
  {
    corpus: 'mem0',
    question: 'Can stale memories rank lower in search than ones used this week?',
    expected: ['platform/features/memory-decay'],
  },
  {
    corpus: 'mem0',
    question: 'How can I see the earlier versions of a memory and what changed?',
    expected: ['api-reference/memory/history-memory', 'platform/features/async-client', 'open-source/features/async-memory'],
  },
  {
    corpus: 'mem0',
    question: "How do I add my own categories like 'billing_issues' for the project?",
    expected: ['platform/features/custom-categories', 'cookbooks/essentials/tagging-and-organizing-memories', 'api-reference/organizations-projects'],
  },
  {
    corpus: 'mem0',
    question: 'How do I switch off usage telemetry in the mem0 command line tool?',
    expected: ['platform/cli'],
  },
  {
    corpus: 'mem0',
    question: 'Is batch update available in the self-hosted version or only in the cloud?',
    expected: ['platform/platform-vs-oss', 'core-concepts/memory-operations/update'],
  },
  {
    corpus: 'mem0',
    question: 'How do I give Cursor access to my memories over MCP?',
    expected: ['platform/mem0-mcp', 'integrations/cursor'],
  },
  {
    corpus: 'mem0',
    question: 'Can I filter memories by metadata, e.g. price greater than 100?',
    expected: ['open-source/features/metadata-filtering', 'platform/features/v2-memory-filters'],
  },
  {
    corpus: 'mem0',
    question: 'Can I add a photo of a receipt as a memory?',
    expected: ['platform/features/multimodal-support', 'open-source/features/multimodal-support', 'cookbooks/frameworks/multimodal-retrieval'],
  },
  {
    corpus: 'mem0',
    question: 'What do I have to change when upgrading the hosted platform to the new v3 memory algorithm?',
    expected: ['migration/platform-v2-to-v3'],
  },
  {
    corpus: 'mem0',
    question: 'We self-host today; how do we move over to the managed platform?',
    expected: ['migration/oss-to-platform'],
  },
  {
    corpus: 'mem0',
    question: 'How do I install the javascript SDK?',
    expected: ['open-source/node-quickstart', 'platform/quickstart'],
  },
  // hoppscotch
  {
    corpus: 'hoppscotch',
    question: "I'm getting CORS errors calling my localhost API from the web app, how do I fix it?",
    expected: ['documentation/features/interceptor', 'documentation/getting-started/troubleshooting', 'support/getting-started/faq'],
  },
  {
    corpus: 'hoppscotch',
    question: 'How do I run my collection from a Jenkins pipeline on the command line?',
    expected: ['documentation/clients/cli/overview'],
  },
  {
    corpus: 'hoppscotch',
    question: 'Can I bring my Postman collections over?',
    expected: ['documentation/features/importer', 'documentation/features/collections'],
  },
  {
    corpus: 'hoppscotch',
    question: 'how to switch to dark mode',
    expected: ['documentation/features/customization'],
  },
  {
    corpus: 'hoppscotch',
    question: 'How do I send a .pfx client certificate for mutual TLS?',
    expected: ['documentation/features/client-certificate'],
  },
  {
    corpus: 'hoppscotch',
    question: 'How do I set up OAuth 2.0 for all requests in a collection?',
    expected: ['documentation/features/authorization'],
  },
  {
    corpus: 'hoppscotch',
    question: 'Can I run every request in a collection 10 times with a 500ms pause in between?',
    expected: ['documentation/features/runner', 'documentation/clients/cli/overview'],
  },
  {
    corpus: 'hoppscotch',
    question: 'How do I save the token from the login response into a variable with a script?',
    expected: [
      'documentation/features/environments',
      'documentation/features/scripts',
      'documentation/getting-started/rest/pre-request-scripts',
      'documentation/getting-started/rest/tests',
    ],
  },
  {
    corpus: 'hoppscotch',
    question: 'What is the keybord shortcut that lists all the shortcuts?',
    expected: ['documentation/features/shortcuts'],
  },
  {
    corpus: 'hoppscotch',
    question: 'How do I configure sending emails (SMTP) on my self-hosted instance?',
    expected: [
      'documentation/self-host/community-edition/prerequisites',
      'documentation/self-host/community-edition/install-and-build',
      'documentation/self-host/enterprise-edition/prerequisites',
      'documentation/self-host/enterprise-edition/install-and-build',
    ],
  },
  {
    corpus: 'hoppscotch',
    question: 'Can the CLI write a JUnit xml report for our CI dashboard?',
    expected: ['documentation/clients/cli/overview'],
  },
  {
    corpus: 'hoppscotch',
    question: 'How do I upload a file as multipart form data?',
    expected: ['documentation/getting-started/rest/uploading-data'],
  },
  {
    corpus: 'hoppscotch',
    question: 'How do I stop our self hosted server from sending anonymous usage data?',
    expected: ['documentation/self-host/community-edition/telemetry', 'documentation/self-host/enterprise-edition/telemetry'],
  },
  {
    corpus: 'hoppscotch',
    question: 'How long can a personal access token stay valid?',
    expected: ['documentation/features/pat', 'documentation/self-host/community-edition/admin-dashboard', 'documentation/self-host/enterprise-edition/admin-dashboard'],
  },
  {
    corpus: 'hoppscotch',
    question: 'How do I fake an API endpoint so the frontend team can start before the backend exists?',
    expected: ['documentation/features/mock'],
  },
  {
    corpus: 'hoppscotch',
    question: 'Can I install it like an app from the browser, without the app store?',
    expected: ['documentation/clients/web/pwa'],
  },
  {
    corpus: 'hoppscotch',
    question: 'How do we automatically add and remove users from Okta in the enterprise edition?',
    expected: ['documentation/self-host/enterprise-edition/user-provisioning'],
  },
  {
    corpus: 'hoppscotch',
    question: 'How do I get python code for a request I built?',
    expected: ['documentation/features/snippets'],
  },
  {
    corpus: 'hoppscotch',
    question: "How do I point the desktop app at our company's own server at hopp.initech.io?",
    expected: ['documentation/clients/desktop/setup'],
  },
  {
    corpus: 'hoppscotch',
    question: 'How do I test a websocket conection?',
    expected: ['documentation/getting-started/realtime/websocket', 'documentation/features/realtime-api-testing', 'documentation/protocols/realtime'],
  },
  {
    corpus: 'hoppscotch',
    question: 'Where do I enter the enterprise license key?',
    expected: [
      'guides/articles/manage-an-enterprise-license-key',
      'documentation/self-host/enterprise-edition/admin-dashboard',
      'documentation/self-host/enterprise-edition/prerequisites',
      'documentation/self-host/enterprise-edition/install-and-build',
    ],
  },
  {
    corpus: 'hoppscotch',
    question: 'How do I publish docs for my collection so other people can read them?',
    expected: ['documentation/features/documentation'],
  },
];

/** The unanswerable fresh held-out questions: 5 on mem0, 5 on hoppscotch. */
export const HELDOUT2_UNANSWERABLE: readonly Fresh<HeldoutUnanswerable>[] = [
  { corpus: 'mem0', question: 'Is there a Kotlin SDK for my Android app?' },
  { corpus: 'mem0', question: 'Is there a Drupal module for mem0?' },
  { corpus: 'mem0', question: 'Can mem0 read memories from a Kafka topic?' },
  { corpus: 'mem0', question: 'Is there an Elixir client library?' },
  { corpus: 'mem0', question: 'Does it plug into a Shopify store to remember shoppers?' },
  { corpus: 'hoppscotch', question: 'Can I test SOAP services?' },
  { corpus: 'hoppscotch', question: 'How do I link a request to a Jira ticket?' },
  { corpus: 'hoppscotch', question: 'Is there a Terraform provider for managing workspaces?' },
  { corpus: 'hoppscotch', question: 'Can I sync my collections with a Bitbucket repository?' },
  { corpus: 'hoppscotch', question: 'Does it support Kerberos authentication?' },
];
