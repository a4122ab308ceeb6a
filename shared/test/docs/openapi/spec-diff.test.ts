import { describe, expect, it } from 'vitest';
import { diffOpenApiSpec } from '../../../src/docs/openapi/spec-diff';

const spec = (paths: string, components = '') => `openapi: 3.0.3
info: {title: Acme, version: '1'}
paths:
${paths}
${components}`;

const LIST_USERS = (param: string, extra = '') => `  /users:
    get:
      operationId: listUsers
      tags: [Users]
      parameters:
        - {name: ${param}, in: query, schema: {type: integer}}
        - {name: cursor, in: query, schema: {type: string}}${extra}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/UserList'}`;

const COMPONENTS = (field: string) => `components:
  schemas:
    UserList:
      type: object
      properties:
        data: {type: array, items: {$ref: '#/components/schemas/User'}}
    User:
      type: object
      required: [id]
      properties:
        id: {type: string}
        ${field}: {type: string, format: email}
        manager: {$ref: '#/components/schemas/User'}`;

describe('diffOpenApiSpec', () => {
  it('reads a renamed query parameter as one rename', () => {
    const diff = diffOpenApiSpec('openapi.yaml', spec(LIST_USERS('per_page'), COMPONENTS('email')), spec(LIST_USERS('page_size'), COMPONENTS('email')));
    expect(diff.changes).toEqual([
      { subject: 'parameter', kind: 'renamed', operation: 'GET /users', in: 'query', name: 'page_size', previous: 'per_page', summary: 'GET /users: query parameter per_page renamed to page_size' },
    ]);
    expect(diff.problems).toEqual([]);
  });

  it('finds response fields through $refs, array items and recursive schemas', () => {
    const diff = diffOpenApiSpec('openapi.yaml', spec(LIST_USERS('limit'), COMPONENTS('email')), spec(LIST_USERS('limit'), COMPONENTS('mail')));
    const names = diff.changes.map((c) => `${c.subject} ${c.kind} ${c.previous ?? ''}>${c.name}`);
    // the recursive `manager: User` stops where User repeats, so its fields are compared once
    expect(names).toEqual(['response_field renamed data[].email>data[].mail']);
  });

  it('tells a parameter whose type changed, and an added and a removed one apart from a rename', () => {
    const before = spec(LIST_USERS('limit', '\n        - {name: sort, in: query, schema: {type: string}}'));
    const after = spec(LIST_USERS('limit', '\n        - {name: order, in: header, schema: {type: string}}').replace('cursor, in: query, schema: {type: string}', 'cursor, in: query, schema: {type: integer}'));
    const kinds = diffOpenApiSpec('openapi.yaml', before, after).changes.map((c) => `${c.kind} ${c.in} ${c.name}`);
    expect(kinds.sort()).toEqual(['added header order', 'changed query cursor', 'removed query sort']);
  });

  it('lists added and removed operations, and the added ones for stub pages', () => {
    const before = spec(`${LIST_USERS('limit')}\n  /teams:\n    delete:\n      responses: {'204': {description: gone}}`, COMPONENTS('email'));
    const after = spec(`${LIST_USERS('limit')}\n  /users/{id}:\n    get:\n      operationId: getUser\n      tags: [Users]\n      parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n      responses: {'200': {description: ok}}`, COMPONENTS('email'));
    const diff = diffOpenApiSpec('openapi.yaml', before, after);
    expect(diff.changes.filter((c) => c.subject === 'operation').map((c) => c.summary)).toEqual(['DELETE /teams: operation removed', 'GET /users/{id}: operation added']);
    expect(diff.addedOperations.map((op) => op.operationId)).toEqual(['getUser']);
  });

  it('reports a version that is not a spec instead of throwing', () => {
    const diff = diffOpenApiSpec('openapi.yaml', spec(LIST_USERS('limit')), 'not: [valid');
    expect(diff.problems).toHaveLength(1);
    expect(diff.problems[0]).toMatch(/^head: /);
    expect(diff.changes.map((c) => c.summary)).toEqual(['GET /users: operation removed']);
  });
});
