/**
 * The assistant's fixed question set over the three shared corpora (test/helpers/corpus.ts): the
 * quality bar of the default answerer (decisions.md section 7 "default answerer"): the right page
 * among the cited sources for at least 80% of the answerable questions, the "not in the docs"
 * answer for every unanswerable one. Used by answer-quality.test.ts and `pnpm bench:chat`.
 *
 * - Answerable questions are phrased as a reader asks, not copied from headings; `expected` lists
 *   every page path (as the built site names pages, the search records' `path`) whose text answers
 *   the question. Each was checked by reading the page's sections.
 * - The last eight trigger-dev, five agentops and four pezzo answerable questions and the last four
 *   unanswerable ones were written after the answerer was first tuned, to check that it generalizes.
 * - Unanswerable questions are plausible for these products but answered by none of the three
 *   corpora (checked by grepping every corpus's sources for their key terms: GPU, Step Functions,
 *   SOC 2, BigQuery, SAML/SSO, HIPAA, invite, dark mode, GDPR/DPA, autoscaling, Elixir, Snowflake,
 *   iOS, key rotation).
 */

/** The shared corpora, by directory name under `CORPUS_DIR`. */
export const CORPORA = ['trigger-dev', 'agentops', 'pezzo'] as const;
export type CorpusName = (typeof CORPORA)[number];

/** A question the corpus answers, with the page(s) that answer it. */
export interface AnswerableQuestion {
  corpus: CorpusName;
  question: string;
  /** page paths (records' `path`) any one of which, cited, counts as right */
  expected: readonly string[];
}

/** A question no corpus answers: the assistant must say so (`answered: false`). */
export interface UnanswerableQuestion {
  /** the site it is asked on */
  corpus: CorpusName;
  question: string;
}

/** The answerable questions: 26 on trigger-dev, 21 on agentops, 19 on pezzo. */
export const ANSWERABLE: readonly AnswerableQuestion[] = [
  // trigger-dev
  { corpus: 'trigger-dev', question: 'How do I retry a task automatically when it fails?', expected: ['errors-retrying', 'tasks/overview'] },
  { corpus: 'trigger-dev', question: 'What is the maximum payload size when I trigger a task?', expected: ['limits', 'triggering'] },
  { corpus: 'trigger-dev', question: 'How can I avoid triggering the same child task twice when the parent retries?', expected: ['idempotency'] },
  { corpus: 'trigger-dev', question: 'How do I run a task every weekday at 9am?', expected: ['tasks/scheduled', 'guides/examples/scrape-hacker-news'] },
  { corpus: 'trigger-dev', question: 'How can my task pause for 30 minutes and then continue?', expected: ['wait-for', 'wait'] },
  { corpus: 'trigger-dev', question: 'My task runs out of memory, how do I give it more RAM?', expected: ['machines', 'tasks/overview'] },
  { corpus: 'trigger-dev', question: 'How do I make sure only one run of a task executes at a time?', expected: ['queue-concurrency', 'tasks/overview'] },
  { corpus: 'trigger-dev', question: 'How do I deploy my tasks from a GitHub Actions workflow?', expected: ['github-actions'] },
  { corpus: 'trigger-dev', question: 'How do I stop a run that has been going on for too long?', expected: ['runs/max-duration', 'tasks/overview'] },
  { corpus: 'trigger-dev', question: 'How can I label runs with a user id so I can filter them later?', expected: ['tags'] },
  { corpus: 'trigger-dev', question: 'How do I make some runs start before others that are already queued?', expected: ['runs/priority'] },
  { corpus: 'trigger-dev', question: 'Can I run a failed run again with the latest version of my code?', expected: ['replaying', 'runs', 'management/runs/replay'] },
  { corpus: 'trigger-dev', question: 'How do I make a task wait until a person approves it?', expected: ['wait-for-token'] },
  { corpus: 'trigger-dev', question: 'How do I store the progress of a run so my app can read it?', expected: ['runs/metadata'] },
  { corpus: 'trigger-dev', question: 'How do I validate the payload with Zod before the task runs?', expected: ['tasks/schemaTask'] },
  { corpus: 'trigger-dev', question: 'How do I write structured logs from inside a task?', expected: ['logging'] },
  { corpus: 'trigger-dev', question: 'Can I create an API key that is only allowed to trigger tasks?', expected: ['apikeys'] },
  { corpus: 'trigger-dev', question: 'How do I update all the Trigger.dev packages in my project to the latest version?', expected: ['upgrading-packages', 'cli-update-commands'] },
  { corpus: 'trigger-dev', question: 'How do I cancel a run from my backend code?', expected: ['runs', 'management/runs/cancel', 'triggering'] },
  { corpus: 'trigger-dev', question: 'How long are logs kept on the free plan?', expected: ['limits'] },
  { corpus: 'trigger-dev', question: 'How do I add Puppeteer to my deployed tasks?', expected: ['config/extensions/puppeteer', 'guides/examples/puppeteer'] },
  { corpus: 'trigger-dev', question: 'How do I trigger a task from my Next.js app?', expected: ['guides/frameworks/nextjs', 'triggering'] },
  { corpus: 'trigger-dev', question: 'How do I give each of my customers their own queue?', expected: ['queue-concurrency'] },
  { corpus: 'trigger-dev', question: 'How do I wait until a specific date before continuing?', expected: ['wait-until'] },
  { corpus: 'trigger-dev', question: 'How do I use Prisma in my tasks?', expected: ['config/extensions/prismaExtension', 'guides/frameworks/prisma'] },
  { corpus: 'trigger-dev', question: 'How do I get notified by email when a run fails?', expected: ['troubleshooting-alerts'] },
  // agentops
  { corpus: 'agentops', question: 'How do I stop AgentOps from collecting information about my machine?', expected: ['v2/concepts/host-env', 'v1/concepts/host-env', 'v2/usage/advanced-configuration', 'v1/usage/advanced-configuration', 'v2/usage/sdk-reference'] },
  { corpus: 'agentops', question: 'How can I tag sessions so I can filter them in the dashboard?', expected: ['v2/concepts/tags', 'v1/concepts/tags'] },
  { corpus: 'agentops', question: 'How do I start and end a trace myself instead of automatically?', expected: ['v2/usage/manual-trace-control', 'v2/concepts/traces'] },
  { corpus: 'agentops', question: 'Can I use AgentOps in a Node.js application written in TypeScript?', expected: ['v2/usage/typescript-sdk'] },
  { corpus: 'agentops', question: 'How do I exchange my API key for a bearer token to call the public API?', expected: ['v2/usage/public-api'] },
  { corpus: 'agentops', question: 'How do I add the AgentOps MCP server to Cursor?', expected: ['v2/usage/mcp-server', 'v2/usage/public-api'] },
  { corpus: 'agentops', question: 'How do I monitor my CrewAI agents?', expected: ['v2/integrations/crewai', 'v1/integrations/crewai'] },
  { corpus: 'agentops', question: 'What do I need installed to self-host AgentOps?', expected: ['v2/self-hosting/overview', 'v2/self-hosting/docker-guide', 'v2/self-hosting/backend-setup', 'v2/self-hosting/native-development'] },
  { corpus: 'agentops', question: 'On which port does the self-hosted dashboard run?', expected: ['v2/self-hosting/docker-guide', 'v2/self-hosting/backend-setup', 'v2/self-hosting/native-development', 'v2/self-hosting/just-commands', 'v2/self-hosting/overview'] },
  { corpus: 'agentops', question: 'How do I record how much a tool call costs?', expected: ['v2/concepts/decorators', 'v2/quickstart', 'v2/usage/recording-operations', 'v2/usage/sdk-reference'] },
  { corpus: 'agentops', question: 'How do I trace each request to my Flask API endpoint?', expected: ['v2/usage/track-endpoint-decorator', 'v2/usage/context-managers'] },
  { corpus: 'agentops', question: 'How do I track a local model that I run with Ollama?', expected: ['v1/integrations/ollama'] },
  { corpus: 'agentops', question: 'How do I trace agents built with the OpenAI Agents SDK in Python?', expected: ['v2/integrations/openai_agents_python'] },
  { corpus: 'agentops', question: 'Can I use a Python with statement so the trace ends by itself?', expected: ['v2/usage/context-managers', 'v2/concepts/traces'] },
  { corpus: 'agentops', question: 'What kinds of spans does AgentOps record?', expected: ['v2/concepts/spans', 'v1/concepts/events', 'v2/concepts/traces', 'v2/concepts/decorators'] },
  { corpus: 'agentops', question: 'How do I point the SDK at a different AgentOps API endpoint?', expected: ['v2/usage/advanced-configuration', 'v1/usage/advanced-configuration', 'v2/usage/sdk-reference', 'v1/usage/sdk-reference'] },
  { corpus: 'agentops', question: 'How do I use AgentOps with Google Gemini?', expected: ['v1/integrations/gemini', 'v2/integrations/google_generative_ai'] },
  { corpus: 'agentops', question: 'How do I add extra metadata to a trace while it is running?', expected: ['v2/usage/manual-trace-control', 'v2/quickstart', 'v2/usage/sdk-reference'] },
  { corpus: 'agentops', question: 'How do I mark a trace as failed?', expected: ['v2/usage/manual-trace-control', 'v2/concepts/traces', 'v2/usage/sdk-reference'] },
  { corpus: 'agentops', question: 'Where do I find my AgentOps API key?', expected: ['v2/usage/advanced-configuration', 'v1/usage/advanced-configuration', 'v2/quickstart'] },
  { corpus: 'agentops', question: 'How do I track a LangGraph agent?', expected: ['v2/integrations/langgraph'] },
  // pezzo
  { corpus: 'pezzo', question: 'How do I turn on caching for my OpenAI requests?', expected: ['client/request-caching'] },
  { corpus: 'pezzo', question: 'How long are cached responses kept?', expected: ['client/request-caching'] },
  { corpus: 'pezzo', question: 'How do I run the whole Pezzo stack on my own machine?', expected: ['deployment/docker-compose'] },
  { corpus: 'pezzo', question: 'Where do I open the console after starting Pezzo locally?', expected: ['deployment/docker-compose'] },
  { corpus: 'pezzo', question: 'Can I use Pezzo together with LangChain?', expected: ['features/langchain'] },
  { corpus: 'pezzo', question: 'Which base URL should my OpenAI client use to send requests through Pezzo?', expected: ['introduction/tutorial-observability/overview', 'features/langchain'] },
  { corpus: 'pezzo', question: 'How do I put variables in a prompt?', expected: ['platform/prompt-management/prompt-editor', 'introduction/tutorial-prompt-management/overview'] },
  { corpus: 'pezzo', question: 'How do I go back to an older version of a prompt?', expected: ['platform/prompt-management/versioning-and-deployments'] },
  { corpus: 'pezzo', question: 'How do I commit and publish a prompt to production?', expected: ['platform/prompt-management/versioning-and-deployments', 'introduction/tutorial-prompt-management/overview'] },
  { corpus: 'pezzo', question: 'Which LLM providers can I choose in the prompt editor?', expected: ['platform/prompt-management/prompt-editor'] },
  { corpus: 'pezzo', question: 'How do I fetch a published prompt from my TypeScript code?', expected: ['introduction/tutorial-prompt-management/overview'] },
  { corpus: 'pezzo', question: 'How can I add a staging environment for my prompts?', expected: ['platform/prompt-management/environments'] },
  { corpus: 'pezzo', question: 'Can I filter requests by their cost?', expected: ['platform/observability/overview'] },
  { corpus: 'pezzo', question: 'Is the Pezzo proxy open source?', expected: ['platform/proxy/overview'] },
  { corpus: 'pezzo', question: 'How can I try out a prompt before I publish it?', expected: ['introduction/tutorial-prompt-management/overview'] },
  { corpus: 'pezzo', question: 'What headers do I need to send to the Pezzo proxy?', expected: ['introduction/tutorial-observability/overview', 'features/langchain'] },
  { corpus: 'pezzo', question: 'Can I see whether a request was served from the cache?', expected: ['client/request-caching'] },
  { corpus: 'pezzo', question: 'What environment does every new project come with?', expected: ['platform/prompt-management/environments', 'introduction/tutorial-prompt-management/overview'] },
  { corpus: 'pezzo', question: 'Where can I see all the versions of a prompt?', expected: ['platform/prompt-management/versioning-and-deployments'] },
];

/** The unanswerable questions (see the module comment for how they were checked). */
export const UNANSWERABLE: readonly UnanswerableQuestion[] = [
  { corpus: 'trigger-dev', question: 'How do I run my task on a machine with a GPU?' },
  { corpus: 'trigger-dev', question: 'How do I migrate my workflows from AWS Step Functions?' },
  { corpus: 'trigger-dev', question: 'Where can I download your SOC 2 report?' },
  { corpus: 'trigger-dev', question: 'How do I export my run history to BigQuery?' },
  { corpus: 'agentops', question: 'Does AgentOps support SAML single sign-on?' },
  { corpus: 'agentops', question: 'Is AgentOps HIPAA compliant?' },
  { corpus: 'agentops', question: 'How do I invite a teammate to my AgentOps organization?' },
  { corpus: 'pezzo', question: 'How do I switch the Pezzo console to dark mode?' },
  { corpus: 'pezzo', question: 'How do I sign a GDPR data processing agreement with Pezzo?' },
  { corpus: 'pezzo', question: 'How do I configure Kubernetes pod autoscaling for the Pezzo console?' },
  { corpus: 'trigger-dev', question: 'Can I write my tasks in Elixir?' },
  { corpus: 'trigger-dev', question: 'How do I load my run results into Snowflake?' },
  { corpus: 'agentops', question: 'Is there an AgentOps app for iOS?' },
  { corpus: 'pezzo', question: 'How do I rotate my Pezzo API key?' },
];
