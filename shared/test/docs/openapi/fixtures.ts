/** Small specs exercising every reference form, Swagger 2.0, webhooks and `$ref` cycles. */
import { memoryFiles } from '../../../src/docs/files';

/** OpenAPI 3.0 JSON at the root: users API, apiKey auth, all parameter locations. */
export const USERS_JSON = {
  openapi: '3.0.3',
  info: { title: 'Users', version: '1' },
  servers: [{ url: 'https://{region}.example.com/v1', variables: { region: { default: 'eu' } } }],
  security: [{ apiKey: [] }],
  paths: {
    '/users': {
      get: {
        operationId: 'listUsers',
        summary: 'List users',
        tags: ['Users'],
        parameters: [
          { name: 'limit', in: 'query', required: true, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, description: 'Page size' },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'The users',
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/User' } } } },
          },
        },
      },
      post: {
        operationId: 'createUser',
        summary: 'Create a user',
        description: 'Creates a **user**. <script>alert(1)</script>',
        deprecated: true,
        tags: ['Users'],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/NewUser' } } },
        },
        responses: { '201': { description: 'Created', content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } } } },
      },
    },
    '/users/{userId}': {
      parameters: [{ name: 'userId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      get: { summary: 'Get a user', tags: ['Users'], responses: { '200': { description: 'OK' } } },
    },
  },
  components: {
    securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
    schemas: {
      NewUser: {
        type: 'object',
        required: ['email'],
        properties: {
          email: { type: 'string', format: 'email', description: 'Where we write' },
          role: { type: 'string', enum: ['admin', 'member'] },
          id: { type: 'string', readOnly: true },
        },
      },
      User: {
        allOf: [
          { $ref: '#/components/schemas/NewUser' },
          { type: 'object', properties: { id: { type: 'string', readOnly: true }, manager: { $ref: '#/components/schemas/User' } } },
        ],
      },
    },
  },
};

/** OpenAPI 3.1 YAML in a folder: runs, bearer auth, a webhook, a recursive schema and a pure $ref loop. */
export const V3_YAML = `
openapi: 3.1.0
info: { title: Runs, version: '3' }
servers:
  - url: https://api.example.dev
security:
  - bearer: []
paths:
  /api/v1/runs/{runId}:
    get:
      operationId: retrieveRun
      summary: Retrieve run
      tags: [Runs]
      parameters:
        - $ref: '#/components/parameters/runId'
      responses:
        '200':
          description: The run
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Run'
  /users:
    get:
      summary: List users (v3)
      responses:
        '200': { description: OK }
  /tree:
    post:
      summary: Post a tree
      x-excluded: true
      requestBody:
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/Node'
      responses:
        '200':
          description: OK
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/LoopA'
webhooks:
  runFinished:
    post:
      summary: Run finished
      requestBody:
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/Run'
      responses:
        '200': { description: Acknowledged }
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
  parameters:
    runId:
      name: runId
      in: path
      required: true
      description: The run ID
      schema: { type: string }
  schemas:
    Run:
      type: object
      properties:
        id: { type: string }
        status: { type: string, enum: [QUEUED, DONE] }
        costInCents: { type: [number, 'null'] }
        parent:
          $ref: '#/components/schemas/Run'
        children:
          type: array
          items:
            $ref: '#/components/schemas/Run'
    Node:
      type: object
      properties:
        name: { type: string }
        children:
          type: array
          items:
            $ref: '#/components/schemas/Node'
    LoopA:
      $ref: '#/components/schemas/LoopB'
    LoopB:
      $ref: '#/components/schemas/LoopA'
`;

/** Swagger 2.0: body and formData parameters, produces/consumes, host/basePath. */
export const SWAGGER_YAML = `
swagger: '2.0'
info: { title: Legacy, version: '1' }
host: legacy.example.com
basePath: /api
schemes: [https]
securityDefinitions:
  basic: { type: basic }
security:
  - basic: []
paths:
  /pets:
    post:
      operationId: addPet
      tags: [Pets]
      consumes: [application/json]
      parameters:
        - in: body
          name: body
          required: true
          schema:
            $ref: '#/definitions/Pet'
      responses:
        '200':
          description: ok
          schema:
            $ref: '#/definitions/Pet'
  /pets/{petId}/photo:
    post:
      operationId: uploadPhoto
      parameters:
        - { name: petId, in: path, required: true, type: integer }
        - { name: file, in: formData, type: file, required: true }
      responses:
        '200': { description: ok }
definitions:
  Pet:
    type: object
    required: [name]
    properties:
      name: { type: string }
      tag: { type: string }
`;

/** A docs repository with the three specs above plus files that must not be taken for specs. */
export function fixtureFiles(extra: Record<string, string> = {}) {
  return memoryFiles({
    'openapi.json': JSON.stringify(USERS_JSON),
    'api/v3-openapi.yaml': V3_YAML,
    'legacy/swagger.yml': SWAGGER_YAML,
    'mint.json': JSON.stringify({ name: 'x', openapi: '/openapi.json', navigation: [] }),
    'package.json': JSON.stringify({ name: 'pkg', version: '1.0.0' }),
    'docs.yml': 'title: not a spec\n',
    'index.mdx': '# Hi',
    ...extra,
  });
}
