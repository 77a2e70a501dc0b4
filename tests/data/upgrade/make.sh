#!/usr/bin/env bash
# Makes tests/data/upgrade/ with the `arbiter` of the release before
# tournaments moved into the ledger (main at 58edc68): a data folder with a
# ledger of schema 2, tournaments.db and tokens.db, and what that server
# said of the tournament's standings. Usage: make.sh ARBITER OUT_DIR
set -euo pipefail
A=$(realpath "$1")
OUT=$2
D=$(mktemp -d)
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$D"' EXIT
"$A" token create --db "$D" --role CHIEF_ARBITER --name director --ttl none > "$D/chief.token"
PORT=$((20000 + RANDOM % 20000))
"$A" serve --db "$D" --listen "127.0.0.1:$PORT" --log-origin upgrade.test/arbiter \
  > "$D/serve.log" 2>&1 &
SERVER=$!
export ARBITER_SERVER=127.0.0.1:$PORT ARBITER_TOKEN=$(cat "$D/chief.token")
until "$A" health > /dev/null 2>&1; do sleep 0.2; done
"$A" tournament create --id spring --system round-robin --title "Spring Open" \
  --player a:Li,Wei:3D --player b:Wang,Fang:2D --player c:Chen,Jie:1D --player d:Zhao,Min:1K
"$A" tournament pair --round 1 spring --board a,b --board c,d
"$A" tournament start-round --round 1 spring
sleep 1
printf '{"at": "%s", "resign": {"color": "WHITE"}}\n' "$(date -u +%FT%T.%NZ)" \
  | "$A" record --game spring-r1-b1 -
"$A" tournament update --player d --rank 2K --reason "rank misread from the entry form" spring
"$A" tournament standings --json spring > "$D/standings.json"
"$A" tournament standings spring > "$D/standings.txt"
kill $SERVER; wait $SERVER || true
# Each database's write-ahead log folded into its file (the server keeps its
# reserved WAL), so that the file alone is the whole database.
for db in ledger.db tokens.db tournaments.db; do
  sqlite3 "$D/$db" 'PRAGMA wal_checkpoint(TRUNCATE);' > /dev/null
done
mkdir -p "$OUT"
for f in ledger.db ledger.key ledger.pub ledger.origin tokens.db tournaments.db chief.token \
         standings.json standings.txt; do
  cp "$D/$f" "$OUT/$f"
done
