#!/bin/sh
# test_account_billing.sh: the account view's Billing section against
# rentop-sim: `:billing 10` fetches invoices and the charges day by day and
# its daily totals (s: per day; the bars of the chart are the same values)
# equal the simulator's own ledger (/__sim/state acct.charged_per_day, in
# whole $0.001 as the rows are served) to the cent for every finished day;
# the seeded deposit shows as a negative deposit row; `--dump charges --json` gives the same sums; where
# /api/v1/invoices/ answers 404 the older /users/me/invoices gives them, and
# the totals still agree.
. "$(dirname "$0")/lib.sh"

sim_start --seed 3 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
e2e_home

# compare DAYFILE: lines "YYYY-MM-DD $N.NN" against the ledger's finished days.
compare_days() {
    python3 - "$SIM_URL" "$1" <<'PY'
import json, sys, time, urllib.request
d = json.load(urllib.request.urlopen(sys.argv[1] + "/__sim/state"))["acct"]["charged_per_day"]
shown = {}
for line in open(sys.argv[2]):
    p = line.split()
    if len(p) == 2:
        shown[p[0]] = float(p[1].replace("$", "").replace(",", ""))
today = time.strftime("%Y-%m-%d", time.gmtime())
bad, n = [], 0
for k, v in d.items():
    day = time.strftime("%Y-%m-%d", time.gmtime(int(k)))
    if day == today or day not in shown:
        continue
    n += 1
    # the ledger moves in whole $0.001 (as the rows are served): the day
    # shown is the ledger's day to the cent (either cent on an exact half)
    mills, cents = round(v * 1000), round(shown[day] * 100)
    if abs(mills - v * 1000) > 1e-6:
        bad.append("%s: ledger %.9f not in whole $0.001" % (day, v))
    elif not (cents * 10 == (mills + 5) // 10 * 10 or (mills % 10 == 5 and abs(cents * 10 - mills) == 5)):
        bad.append("%s: shown %.2f, ledger %.3f" % (day, shown[day], v))
if n < 3 or bad:
    print("# compared %d days; %s" % (n, "; ".join(bad)))
    sys.exit(1)
print("# %d finished days equal the ledger to the cent" % n)
PY
}

# The per-day lines of the screen as "date amount".
screen_days() { screen | sed -n 's/^ *\(20[0-9-]*\)  [A-Z][a-z][a-z] *\(\$[0-9.,]*\).*/\1 \2/p'; }

t_billing() {
    rentop_start -s 130x40 || return 1
    wait_for "Instances" 30 || return 1
    cmd "billing 10"
    wait_for "last 10 days: spent" 30 || return 1
    wait_for "█" 10 || return 1                           # the chart's bars
    keys /; type_text "kind=deposit"; keys Enter           # the list widget's filter
    wait_for_re "deposit +stripe +-\\\$100\\.00" 10 || return 1
    keys Escape
    keys s
    wait_for "DAY (UTC)" 10 || return 1
    screen_days >"$E2E_TMP/days.txt"
    [ "$(wc -l <"$E2E_TMP/days.txt")" -eq 10 ] || { fail "not 10 day lines"; screen_dump; return 1; }
    compare_days "$E2E_TMP/days.txt" || return 1
    keys s
    wait_for "WEEK (MON-SUN UTC)" 10 || return 1
    keys s
    wait_for "INSTANCE OR ENDPOINT" 10 || return 1
    wait_for_re "serverless +endpoint [0-9]+ " 10 || return 1
    [ "$(sent GET /api/v0/charges/)" -ge 7 ] || { fail "not a charges call per day"; return 1; }
    keys 1
    rentop_quit
}

t_dump() {
    write_key_file "$E2E_TMP/api_key" "$SIM_KEY"
    "$RENTOP" --url "$SIM_URL" --api-key-file "$E2E_TMP/api_key" --dump charges --json --query 10 \
        >"$E2E_TMP/charges.json" 2>"$E2E_TMP/dump.err" || { fail "dump failed"; cat "$E2E_TMP/dump.err"; return 1; }
    python3 - "$E2E_TMP/charges.json" >"$E2E_TMP/dumpdays.txt" <<'PY' || return 1
import json, sys
rows = json.load(open(sys.argv[1]))
days = {}
for r in rows:
    if r["kind"] in ("instance", "storage", "serverless"):
        days[r["date"]] = days.get(r["date"], 0) + r["amount"]
assert any(r["kind"] == "deposit" and r["amount"] == -100 for r in rows), "no deposit"
for k, v in sorted(days.items()):
    print("%s $%.2f" % (k, v))
PY
    compare_days "$E2E_TMP/dumpdays.txt" || return 1
    # the plain table: the rows, then the spend per day and the total
    "$RENTOP" --url "$SIM_URL" --api-key-file "$E2E_TMP/api_key" --dump charges --query 10 \
        >"$E2E_TMP/charges.txt" 2>>"$E2E_TMP/dump.err" || { fail "plain dump failed"; return 1; }
    grep -qE '^20[0-9-]+  deposit +stripe +-\$100\.00' "$E2E_TMP/charges.txt" || { fail "no deposit row"; return 1; }
    sed -n '/^DAY /,/^total /p' "$E2E_TMP/charges.txt" | sed -n 's/^\(20[0-9-]*\) *\(\$[0-9.]*\)$/\1 \2/p' >"$E2E_TMP/plaindays.txt"
    [ "$(wc -l <"$E2E_TMP/plaindays.txt")" -eq 10 ] || { fail "not 10 day totals"; cat "$E2E_TMP/charges.txt" | tail -14; return 1; }
    compare_days "$E2E_TMP/plaindays.txt" || return 1
    # a range that is not a number of days is a usage error
    "$RENTOP" --url "$SIM_URL" --api-key-file "$E2E_TMP/api_key" --dump charges --query 0 >/dev/null 2>&1
    [ $? -eq 2 ] || { fail "--query 0 is not a usage error"; return 1; }
}

t_old_form() {
    fault /api/v1/invoices/ GET 404
    rentop_start -s 130x40 || return 1
    wait_for "Instances" 30 || return 1
    cmd "billing 10"
    wait_for "(older invoices form)" 30 || return 1
    keys /; type_text "kind=deposit"; keys Enter
    wait_for_re "deposit +payment +-\\\$100\\.00" 10 || return 1
    keys Escape
    keys s
    wait_for "DAY (UTC)" 10 || return 1
    screen_days >"$E2E_TMP/olddays.txt"
    compare_days "$E2E_TMP/olddays.txt" || return 1
    [ "$(sent GET /api/v0/users/me/invoices)" -ge 1 ] || { fail "the older form was not asked"; return 1; }
    keys 1
    rentop_quit
}

tap "billing: :billing 10, the daily totals agree with the ledger to the cent, s cycles" t_billing
tap "--dump charges (--json and the plain table): the same daily sums; --query 0 refused" t_dump
tap "billing: /api/v1/invoices/ absent (404): the older /users/me/invoices" t_old_form
e2e_done
