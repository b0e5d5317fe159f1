#!/bin/bash
# First start of the primary: a replication account for the streaming replica, and a read-only
# account with which EMQX checks device secrets (emqx/authn-authz.hocon). It is granted the columns
# it reads once the console has created its tables (docs/deployment.md, first start).
set -euo pipefail
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<SQL
CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD '${REPLICATION_PASSWORD}';
CREATE ROLE emqx_auth WITH LOGIN PASSWORD '${EMQX_AUTH_PASSWORD}';
SQL
echo "host replication replicator all scram-sha-256" >> "$PGDATA/pg_hba.conf"
