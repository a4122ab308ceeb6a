-- Sync client ids are UUIDs, read in any case and kept in lower case (server/src/services/sync-ids.ts
-- `syncClientKey`). Rows stored in another case are lower-cased with their answers, so their clients go on
-- where they were; an id whose case variants claimed several rows is left as it is (no push reaches those).
UPDATE "SyncResult" SET "clientId" = lower("clientId")
WHERE "clientId" <> lower("clientId")
  AND (SELECT count(*) FROM "SyncClient" AS c WHERE lower(c."clientId") = lower("SyncResult"."clientId")) = 1;
UPDATE "SyncClient" SET "clientId" = lower("clientId")
WHERE "clientId" <> lower("clientId")
  AND (SELECT count(*) FROM "SyncClient" AS c WHERE lower(c."clientId") = lower("SyncClient"."clientId")) = 1;
