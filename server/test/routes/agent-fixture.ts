/**
 * The OpenAPI document the docs agent tests change between two commits of a product repository:
 * `GET /users` (tag Users) with one query parameter whose name each commit picks, and whatever
 * `extraOperations` adds under `/users` (YAML, indented as methods of the path).
 */
export function usersOpenApi(param: string, extraOperations = ''): string {
  return `openapi: 3.0.3
info: {title: Acme API, version: '1'}
paths:
  /users:
    get:
      operationId: listUsers
      summary: List users
      tags: [Users]
      parameters:
        - {name: ${param}, in: query, description: Users per page, schema: {type: integer}}
      responses:
        '200': {description: The users}
${extraOperations}`;
}
