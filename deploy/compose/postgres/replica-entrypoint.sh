#!/bin/bash
# A hot standby of the primary: copied with pg_basebackup at its first start, then streaming.
# To fail over, promote it (docker compose exec postgres-replica su postgres -c "pg_ctl promote")
# and point DATABASE_URL at it; docs/deployment.md has the whole procedure.
set -euo pipefail
export PGDATA=/var/lib/postgresql/data
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_isready -h "$PRIMARY_HOST" -U replicator; do sleep 1; done
  PGPASSWORD="$REPLICATION_PASSWORD" pg_basebackup -h "$PRIMARY_HOST" -U replicator -D "$PGDATA" -R -X stream -P
  chown -R postgres:postgres "$PGDATA"
  chmod 0700 "$PGDATA"
fi
exec gosu postgres postgres -c hot_standby=on
