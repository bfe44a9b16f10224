#!/usr/bin/env bash
# Regenerates the multi-player tables of docs/FINDINGS.md: for 3 and 4 players
# (free-for-all, coalition values) and 2 against 2 (teams), the start's value for
# every seat under the standard, rollover and rahman rules, F = 3..8.
#
#   bash scripts/multiplayer-table.sh > /tmp/tables.md
#
# Every cell is `chopsticks solve --json` of that ruleset; nothing is typed in.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/chopsticks

cell() {
    "$bin" solve --quiet --json "$@" | python3 -c '
import json, sys
d = json.load(sys.stdin)
def short(s):
    v, r = s["value"], s["remoteness"]
    return {"win": "W%d" % r if r is not None else "W", "lose": "L%d" % r if r is not None else "L", "draw": "D"}[v]
seats = " ".join(short(s) for s in d["start_seats"])
print("%s | %s | %s" % (seats, d["reachable"], d["positions"]))
'
}

for setup in "3 players:--players 3" "4 players:--players 4" "2 against 2:--players 4 --teams"; do
    name=${setup%%:*}
    flags=${setup#*:}
    echo
    echo "#### $name"
    echo
    echo "| rules | F | start value per seat (turn order) | reachable | positions |"
    echo "|---|---|---|---|---|"
    for preset in standard rollover rahman; do
        for f in 3 4 5 6 7 8; do
            # shellcheck disable=SC2086
            echo "| $preset | $f | $(cell --preset "$preset" --fingers "$f" $flags) |"
        done
    done
done
