#!/bin/sh
# test_sv_spark.sh: load over time (issue 24): while the serverless view is
# shown, each endpoint row draws its last hour of load, worker count and
# cost as sparklines (UTF-8 blocks; `_.-=#` under --ascii), filled as the
# worker answers come in over (test-clock) minutes; the workers overlay
# draws the same hour as larger charts.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/autoscale_lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -t -s 220x40 || { echo "not ok - rentop starts"; exit 1; }

# spark_cells: the block glyphs of llm-chat's sparklines on screen now.
spark_cells() {
    line_with "llm-chat (" | sed -n 's/.*\(load .*\)$/\1/p' | grep -o '[▁▂▃▄▅▆▇█]' | wc -l
}
# spark_filled N: at least N block glyphs in llm-chat's row.
spark_filled() { [ "$(spark_cells)" -ge "$1" ]; }

t_spark() {
    wait_for "Instances" 30 || return 1
    keys 4
    wait_for "Serverless: 3 endpoints" 20 || return 1
    wait_for_re "llm-chat \\([0-9]+\\).*load [0-9]" 20 || return 1
    # one sample at first: a cell in each of the three lines
    clock_until 1 spark_filled 3 || { screen_dump; return 1; }
    # minutes of answers fill more cells (a cell is 6 minutes of the hour)
    clock_until 240 spark_filled 9 || { screen_dump; return 1; }
    l=$(line_with "llm-chat (")
    echo "$l" | grep -qE 'load [ ▁▂▃▄▅▆▇█]{10} n [ ▁▂▃▄▅▆▇█]{10} \$ [ ▁▂▃▄▅▆▇█]{10}' ||
        { fail "no three 10-cell sparklines in: $l"; return 1; }
}

t_chart() {
    select_endpoint llm-chat
    keys Enter
    wait_for "Workers of llm-chat" 10 || return 1
    wait_for "load, last hour (max" 10 || return 1
    on_screen "workers, last hour" || return 1
    on_screen "\$/h, last hour" || return 1
    # the chart's columns: full blocks below the title row
    n=$(screen | sed -n '/load, last hour/,$p' | grep -o '█' | wc -l)
    [ "$n" -ge 5 ] || { fail "the chart draws $n full blocks"; screen_dump; return 1; }
    keys q
    wait_for "Serverless: " 10
}

t_ascii() {
    keys 1
    wait_for "Instances" 10 || return 1
    rentop_quit || return 1
    tm kill-server >/dev/null 2>&1
    rentop_start -t -s 220x40 --ascii || return 1
    wait_for "Instances" 30 || return 1
    keys 4
    wait_for "Serverless: 3 endpoints" 20 || return 1
    clock_until 240 has_re 'llm-chat \([0-9]+\).*load [ _.=#-]*[_.=#-]{2,}[ _.=#-]* n ' ||
        { screen_dump; return 1; }
    line_with "llm-chat (" | grep -q '[▁▂▃▄▅▆▇█]' && { fail "UTF-8 blocks under --ascii"; return 1; }
    return 0
}

tap "serverless: each endpoint row draws its last hour (load, workers, \$/h) as sparklines" t_spark
tap "serverless: the workers overlay charts the endpoint's last hour" t_chart
tap "serverless: --ascii draws the sparklines with _.-=#" t_ascii
e2e_done
