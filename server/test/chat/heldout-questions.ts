/**
 * The held-out question set: questions about two real Mintlify documentation repositories that the
 * answerer and search were never developed or tuned on (fixtures/corpora-heldout: `mintlify`, the
 * Mintlify product docs, and `pipecat`, the Pipecat docs; see each `<name>.SOURCE.md`). `pnpm bench:chat`
 * reports on it beside the development set (questions.ts); nothing in the answering code may be tuned to it.
 *
 * - Written (and committed) before the answerer was first run on these corpora. The questions are phrased
 *   as a user types them: typos ("diffrent", "interupt"), paraphrases ("public address" for URL,
 *   "spreadsheet" for CSV), and example names and numbers that the docs cannot contain ("for Initech",
 *   "after 30 minutes", "since 2022").
 * - `expected` lists every page path (the search records' `path`) that answers the question; each was
 *   checked by reading the page's text. Citing any one of them counts as right.
 * - Unanswerable questions ask about something plausible whose deciding word is absent from the corpus
 *   (checked by a case-insensitive search of every record's text and title: Netlify, AsciiDoc, Azure DevOps,
 *   Matomo, YubiKey/WebAuthn, reStructuredText, WordPress, Gatsby, Raspberry Pi, Helm, Salesforce, Zoom,
 *   SOC 2, GDPR, Bitcoin).
 */

/** The held-out corpora, by directory name under `HELDOUT_CORPUS_DIR` (test/helpers/corpus.ts). */
export const HELDOUT_CORPORA = ['mintlify', 'pipecat'] as const;
export type HeldoutCorpusName = (typeof HELDOUT_CORPORA)[number];

/** A held-out question the corpus answers, with the page(s) that answer it. */
export interface HeldoutAnswerable {
  corpus: HeldoutCorpusName;
  question: string;
  /** page paths (records' `path`) any one of which, cited, counts as right */
  expected: readonly string[];
}

/** A held-out question the corpus does not answer: the assistant must refuse (`answered: false`). */
export interface HeldoutUnanswerable {
  corpus: HeldoutCorpusName;
  question: string;
}

/** The answerable held-out questions: 30 on mintlify, 30 on pipecat. */
export const HELDOUT_ANSWERABLE: readonly HeldoutAnswerable[] = [
  // mintlify
  { corpus: 'mintlify', question: 'How do I run the docs localy on a diffrent port than 3000?', expected: ['cli/preview', 'cli/commands'] },
  { corpus: 'mintlify', question: 'Can I get a preview link for a pull request before it is merged?', expected: ['deploy/preview-deployments', 'api/preview/trigger'] },
  { corpus: 'mintlify', question: 'Can we serve our docs at initech.com/docs instead of on a subdomain?', expected: ['deploy/docs-subpath', 'customize/custom-domain', 'deploy/vercel', 'deploy/cloudflare', 'deploy/route53-cloudfront', 'deploy/reverse-proxy'] },
  { corpus: 'mintlify', question: 'What DNS records do I need so docs.initech.io points at our documentation?', expected: ['customize/custom-domain', 'cli/commands'] },
  { corpus: 'mintlify', question: 'How do I rename a page without breaking the old links people bookmarked since 2022?', expected: ['create/redirects', 'editor/configurations'] },
  { corpus: 'mintlify', question: 'Our docs are in a /docs folder of a bigger repo, how do I set that up?', expected: ['deploy/monorepo'] },
  { corpus: 'mintlify', question: 'How can I hide a draft page from the sidebar but keep its URL working?', expected: ['organize/hidden-pages'] },
  { corpus: 'mintlify', question: 'How do i stop a folder of internal notes from being publised?', expected: ['organize/mintignore'] },
  { corpus: 'mintlify', question: 'Where do I put my Google Analytics measurment ID?', expected: ['integrations/analytics/google-analytics', 'organize/settings-integrations', 'organize/settings-reference'] },
  { corpus: 'mintlify', question: 'Can I download our page view numbers as a spreadsheet for the Q3 report?', expected: ['analytics/export'] },
  { corpus: 'mintlify', question: 'How do I send analytics events to our own S3 bucket?', expected: ['analytics/streaming'] },
  { corpus: 'mintlify', question: 'How do our employees log in to the dashboard with Okta?', expected: ['dashboard/sso', 'dashboard/scim'] },
  { corpus: 'mintlify', question: 'How do we automatically remove dashboard access for people who leave Initech?', expected: ['dashboard/scim'] },
  { corpus: 'mintlify', question: 'Can dashboard sessions expire after 30 minutes of inactivity?', expected: ['dashboard/session-security', 'dashboard/network-access'] },
  { corpus: 'mintlify', question: 'Which role is allowed to change the custom domain?', expected: ['dashboard/roles'] },
  { corpus: 'mintlify', question: 'How do I make one page rank higher in the search bar?', expected: ['optimize/search', 'organize/pages', 'organize/settings-reference'] },
  { corpus: 'mintlify', question: 'How do I keep a page out of the site search results but still let Google index it?', expected: ['optimize/search'] },
  { corpus: 'mintlify', question: 'What does the llms.txt file of my site contain?', expected: ['ai/llmstxt'] },
  { corpus: 'mintlify', question: 'What is the largest image file I can add to a page?', expected: ['create/image-embeds', 'create/files'] },
  { corpus: 'mintlify', question: 'How do I show an installation procedure as numbered steps?', expected: ['components/steps'] },
  { corpus: 'mintlify', question: 'How do I draw a flowchart diagram inside a page?', expected: ['components/mermaid-diagrams'] },
  { corpus: 'mintlify', question: 'How do I reuse the same paragraph on several pages without copy pasting?', expected: ['create/reusable-snippets'] },
  { corpus: 'mintlify', question: 'How do I generate the API reference pages from our openapi.yaml file?', expected: ['api-playground/openapi-setup', 'api-playground/overview'] },
  { corpus: 'mintlify', question: 'Requests from the API playground fail behind our reverse proxy, what should I check?', expected: ['api-playground/troubleshooting', 'deploy/reverse-proxy'] },
  { corpus: 'mintlify', question: 'How can our CI pipeline kick off a deployment through the REST API?', expected: ['api/update/trigger', 'api/introduction'] },
  { corpus: 'mintlify', question: 'How do I password protect the docs so only paying customers can read them?', expected: ['deploy/authentication-setup'] },
  { corpus: 'mintlify', question: 'How many credits does an SEO audit cost?', expected: ['credits'] },
  { corpus: 'mintlify', question: 'Is there an RSS feed for our changelog entries?', expected: ['create/changelogs', 'components/update'] },
  { corpus: 'mintlify', question: 'Can I use our own brand font for the headings?', expected: ['customize/fonts', 'organize/settings-appearance'] },
  { corpus: 'mintlify', question: 'How do I move our existing Docusaurus site over?', expected: ['migration/docusaurus'] },
  // pipecat
  { corpus: 'pipecat', question: 'How do I let the caller interupt the bot while it is still talking?', expected: ['pipecat/fundamentals/interruptions'] },
  { corpus: 'pipecat', question: 'How do I record the conversation audio to a file?', expected: ['pipecat/fundamentals/recording-audio', 'api-reference/server/utilities/audio/audio-buffer-processor'] },
  { corpus: 'pipecat', question: 'How can I save a transcript of every call for Acme support?', expected: ['pipecat/fundamentals/saving-transcripts', 'api-reference/server/utilities/observers/transcription-observer'] },
  { corpus: 'pipecat', question: 'How do I notice that the user has gone quiet for 10 seconds and prompt them?', expected: ['pipecat/fundamentals/detecting-user-idle'] },
  { corpus: 'pipecat', question: 'How does the bot know it reached an answering machine and leave a message?', expected: ['pipecat/fundamentals/voicemail', 'api-reference/server/extensions/voicemail'] },
  { corpus: 'pipecat', question: 'How do I get through a phone menu like "press 1 for sales" automatically?', expected: ['pipecat/fundamentals/ivr', 'api-reference/server/extensions/ivr'] },
  { corpus: 'pipecat', question: 'How do I connect a Twilio phone number to my bot?', expected: ['pipecat/telephony/twilio-websockets', 'pipecat-cloud/guides/telephony/twilio-websocket', 'pipecat/telephony/twilio-daily-sip'] },
  { corpus: 'pipecat', question: 'How do I deploy my agent to Pipecat Cloud?', expected: ['pipecat-cloud/fundamentals/deploy', 'api-reference/cli/cloud/deploy'] },
  { corpus: 'pipecat', question: 'How do I keep my OpenAI key out of the docker image when deploying to the cloud?', expected: ['pipecat-cloud/fundamentals/secrets', 'api-reference/cli/cloud/secrets'] },
  { corpus: 'pipecat', question: 'How do I keep a few instances warm so calls start without a cold start?', expected: ['pipecat-cloud/fundamentals/scaling', 'pipecat-cloud/guides/capacity-planning', 'api-reference/cli/cloud/deploy'] },
  { corpus: 'pipecat', question: 'How do I redeploy automatically on every push to main with github actions?', expected: ['pipecat-cloud/guides/ci-with-github-actions', 'pipecat-cloud/guides/deploy-from-github'] },
  { corpus: 'pipecat', question: 'How can Pipecat Cloud pull my image from a private Amazon ECR registry?', expected: ['pipecat-cloud/guides/container-registries/aws-ecr'] },
  { corpus: 'pipecat', question: 'Why does starting a session fail with a 429 error?', expected: ['pipecat-cloud/fundamentals/scaling', 'pipecat-cloud/fundamentals/active-sessions', 'api-reference/pipecat-cloud/sdk-reference/exceptions', 'pipecat-cloud/fundamentals/error-codes'] },
  { corpus: 'pipecat', question: 'Can we use Pipecat Cloud for patient calls that need HIPAA?', expected: ['pipecat-cloud/security/hipaa'] },
  { corpus: 'pipecat', question: 'How do I let the LLM call my own function to look up the wether?', expected: ['pipecat/learn/function-calling'] },
  { corpus: 'pipecat', question: 'How do I measure the time to first byte of each service?', expected: ['pipecat/fundamentals/metrics', 'api-reference/server/pipeline/pipeline-params'] },
  { corpus: 'pipecat', question: 'How do I shorten the context when a conversation gets too long for the model?', expected: ['pipecat/fundamentals/context-summarization', 'api-reference/server/utilities/context-summarization', 'pipecat/learn/context-management'] },
  { corpus: 'pipecat', question: 'How do I switch to a backup LLM in the middle of a call?', expected: ['api-reference/server/utilities/service-switchers/llm-switcher', 'api-reference/server/utilities/service-switchers/service-switcher'] },
  { corpus: 'pipecat', question: 'How do I change the TTS voice during a conversation?', expected: ['pipecat/fundamentals/service-settings', 'api-reference/server/frames/control-frames'] },
  { corpus: 'pipecat', question: 'How do I build a structured conversation with states, like taking a pizza order?', expected: ['pipecat-flows/introduction', 'pipecat-flows/guides/quickstart', 'pipecat-flows/guides/nodes-and-messages', 'overview/flows', 'pipecat-flows/examples'] },
  { corpus: 'pipecat', question: 'How do I send a custom message from the web page to the bot?', expected: ['client/guides/custom-messaging', 'api-reference/client/js/client-methods'] },
  { corpus: 'pipecat', question: 'Should a browser app use WebRTC or a websocket transport?', expected: ['client/concepts/choosing-a-transport', 'pipecat/learn/transports'] },
  { corpus: 'pipecat', question: 'How can the bot place an outbound phone call with Daily?', expected: ['pipecat-cloud/guides/telephony/daily-dial-out', 'pipecat/telephony/daily-pstn'] },
  { corpus: 'pipecat', question: 'How do I filter out background voices and noise from the caller audio?', expected: ['pipecat/features/krisp-viva', 'pipecat-cloud/guides/krisp-viva'] },
  { corpus: 'pipecat', question: 'How do I detect when the user has actually finished their turn instead of just pausing?', expected: ['api-reference/server/utilities/turn-detection/smart-turn-overview', 'pipecat-cloud/guides/smart-turn', 'api-reference/server/utilities/turn-management/user-turn-strategies'] },
  { corpus: 'pipecat', question: 'How do I run my bot on my laptop for testing?', expected: ['pipecat/deployment/running-bots-locally', 'pipecat/get-started/quickstart'] },
  { corpus: 'pipecat', question: 'Which regions can I deploy my agent to?', expected: ['pipecat-cloud/guides/regions', 'api-reference/cli/cloud/regions'] },
  { corpus: 'pipecat', question: 'Where can I see the logs of my deployed agent from yesterday?', expected: ['pipecat-cloud/fundamentals/logging', 'api-reference/cli/cloud/agent'] },
  { corpus: 'pipecat', question: 'How do I send traces to Datadog?', expected: ['pipecat-cloud/guides/using-datadog', 'api-reference/server/utilities/opentelemetry'] },
  { corpus: 'pipecat', question: 'How do I stop the user from interrupting the bot during its greeting?', expected: ['pipecat/fundamentals/user-input-muting', 'api-reference/server/utilities/turn-management/user-mute-strategies'] },
];

/** The unanswerable held-out questions: 8 on mintlify, 7 on pipecat. */
export const HELDOUT_UNANSWERABLE: readonly HeldoutUnanswerable[] = [
  { corpus: 'mintlify', question: 'Can I deploy the docs site to Netlify?' },
  { corpus: 'mintlify', question: 'Does it support AsciiDoc files as pages?' },
  { corpus: 'mintlify', question: 'How do I connect Initech\'s Azure DevOps repository?' },
  { corpus: 'mintlify', question: 'How do I add Matomo tracking to the docs?' },
  { corpus: 'mintlify', question: 'Can dashboard users sign in with a YubiKey?' },
  { corpus: 'mintlify', question: 'Can I write pages in reStructuredText?' },
  { corpus: 'mintlify', question: 'How do I import our WordPress blog posts?' },
  { corpus: 'mintlify', question: 'Can we pay the subscription in Bitcoin?' },
  { corpus: 'pipecat', question: 'Can I run the bot on a Raspberry Pi?' },
  { corpus: 'pipecat', question: 'Is there a Helm chart for deploying agents?' },
  { corpus: 'pipecat', question: 'How do I log each call into Salesforce?' },
  { corpus: 'pipecat', question: 'Can the bot join a Zoom meeting?' },
  { corpus: 'pipecat', question: 'Does Pipecat Cloud have a SOC 2 report?' },
  { corpus: 'pipecat', question: 'How do I handle GDPR deletion requests for call recordings?' },
  { corpus: 'pipecat', question: 'Is there a Gatsby plugin for the client?' },
];
